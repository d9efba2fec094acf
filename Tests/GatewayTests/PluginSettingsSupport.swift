import AuthCore
import ProviderApple
import ProviderAnonymous
@testable import ProviderEmail
import ProviderKit
@testable import Gateway

extension GatewayConfiguration {
    /// A plugin's settings as its factory parses them at start (tests of configuration look at these).
    func pluginSettings<T>(_ type: T.Type) throws -> T? {
        try ConfigurationLoader.configuredPlugins(self, factories: ProviderRegistrations.factories)
            .lazy.compactMap { $0.settings(as: T.self) }.first
    }

    func emailSettings() throws -> EmailSettings { try pluginSettings(EmailSettings.self) ?? EmailSettings() }
    func appleSettings() throws -> AppleConfiguration { try pluginSettings(AppleConfiguration.self) ?? AppleConfiguration() }
    func anonymousSettings() throws -> AnonymousProvider.Configuration {
        try pluginSettings(AnonymousProvider.Configuration.self) ?? AnonymousProvider.Configuration()
    }
}

extension TestGateway {
    /// The email provider's KDF pool (to watch its queue).
    var kdfPool: WorkerPool? { (app.services.email.accounts as? EmailProvider)?.passwords?.pool }
}
