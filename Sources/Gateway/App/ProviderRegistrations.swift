import AuthCore
import ProviderAnonymous

/// The registration table: the one place that knows every provider plugin. Adding a provider is one line
/// here (plus its module and tests).
enum ProviderRegistrations {
    static func make(_ configuration: GatewayConfiguration, time: any TimeSource) -> [any CredentialProvider] {
        [
            AnonymousProvider(configuration: configuration.anonymous, time: time),
        ]
    }
}
