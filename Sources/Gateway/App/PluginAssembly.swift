import AuthCore
import Outbound
import ProviderKit
import Storage

/// Builds every plugin from the configuration: each factory of the registration table gets its section and a
/// `ProviderContext` made of the gateway's services (store-backed ledgers and records, the operator's log).
struct PluginAssembly: Sendable {
    let providers: ProviderDirectory
    let senders: [any CodeSender]

    static func build(_ configuration: GatewayConfiguration, factories: [any ProviderFactory],
                      extraProviders: [any CredentialProvider], store: any UserStore, sealer: Sealer,
                      time: any TimeSource, fetcher: any HTTPFetching, logger: Logger) throws -> PluginAssembly {
        let context = ProviderContext(
            fetcher: fetcher, time: time, sealer: sealer, projectId: configuration.projectId,
            publicBaseURL: configuration.publicBaseURL, dataDirectory: configuration.dataDirectory,
            emulator: configuration.emulator, counters: StoreAbuseCounters(store: store, time: time),
            ledger: { kind in StoreNonceLedger(store: store, kind: kind, time: time) },
            log: { provider in GatewayProviderLog(logger: logger, provider: provider) },
            records: { provider in StoreProviderRecords(store: store, provider: provider, time: time) })
        let configured = try ConfigurationLoader.configuredPlugins(configuration, factories: factories)
        let built = try configured.map { try $0.plugins(context) }
        let directory = try ProviderDirectory(fixed: built.flatMap(\.providers) + extraProviders,
                                          storedSources: configured.filter(\.readsStoredConfigs), context: context)
        let phoneOrder = directory.provider(.phone, as: (any PhoneAccounts).self)?.senderOrder ?? []
        return PluginAssembly(providers: directory, senders: try arrange(built.flatMap(\.senders), phoneOrder: phoneOrder))
    }

    /// Phone senders in the order `phone.senders` names them (only those), others as registered; an unknown name
    /// stops the start.
    static func arrange(_ senders: [any CodeSender], phoneOrder: [String]) throws -> [any CodeSender] {
        guard !phoneOrder.isEmpty else { return senders }
        let phone = senders.filter { $0.channel == .phone }
        let ordered = try phoneOrder.map { name in
            guard let sender = phone.first(where: { $0.name == name }) else {
                let known = phone.map(\.name).joined(separator: ", ")
                throw ConfigurationError("phone.senders names \"\(name)\", but no such sender is configured (configured: \(known.isEmpty ? "none" : known))")
            }
            return sender
        }
        return senders.filter { $0.channel != .phone } + ordered
    }
}
