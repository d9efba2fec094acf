import AuthCore
import Outbound
import ProviderAnonymous
import ProviderApple
import Storage
import ProviderKit

/// The registration table: the one place that knows every provider plugin. Adding a provider is one line
/// here (plus its module and tests).
enum ProviderRegistrations {
    static func make(_ configuration: GatewayConfiguration, time: any TimeSource, store: any UserStore,
                     fetcher: any HTTPFetching, logger: Logger) throws -> [any CredentialProvider] {
        [
            AnonymousProvider(configuration: configuration.anonymous, time: time),
            try AppleProvider(configuration: configuration.apple, fetcher: fetcher,
                              ledger: StoreNonceLedger(store: store, kind: "apple.nonce", time: time), time: time,
                              log: GatewayProviderLog(logger: logger, provider: .apple)),
        ]
    }
}
