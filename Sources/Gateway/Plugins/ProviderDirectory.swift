import AuthCore
import ProviderKit
import Storage
import Synchronization
import WireFormats

/// The providers the gateway runs now: those built from the configuration file, plus those whose
/// configuration is stored in the database (created through the admin API) and built by the factories that
/// read stored configurations.
///
/// The set is rebuilt every `refreshInterval` from configuration plus store, so a provider created through any
/// instance is served by every instance sharing the database within that time (README: "Provider plugins").
/// A rebuild that fails keeps the previous set; a stored configuration that cannot be built is skipped and
/// logged; a stored provider never replaces one from the file.
final class ProviderDirectory: Sendable {
    /// The settings key holding stored provider configurations: `{providerId: {config}}`.
    static let storedConfigsKey = "providers.stored"
    /// Written by every change of `storedConfigsKey` before it reads it (see `setStoredConfig`).
    static let storedConfigsLockKey = "providers.stored.lock"
    static let refreshInterval: Duration = .seconds(5)

    private let fixed: [any CredentialProvider]
    private let storedSources: [ConfiguredPlugin]
    /// What stored providers are built with (the admin API also seals and opens their secrets with it).
    let context: ProviderContext
    private let state: Mutex<State>

    private struct State {
        var registry: ProviderRegistry
        var stored: [StoredProviderConfig] = []
        /// Refreshes are numbered when they start reading; one that read earlier than the last applied never
        /// overwrites it, so after a refresh returns, the registry is at least as new as what it read.
        var nextRefresh = 0
        var appliedRefresh = 0
    }

    /// Throws `ConfigurationError` when two providers from the configuration share an id.
    init(fixed: [any CredentialProvider], storedSources: [ConfiguredPlugin], context: ProviderContext) throws {
        self.fixed = fixed
        self.storedSources = storedSources
        self.context = context
        state = Mutex(State(registry: try ProviderRegistry(fixed)))
    }

    /// The registry as of the last refresh.
    var current: ProviderRegistry { state.withLock { $0.registry } }

    subscript(id: ProviderID) -> (any CredentialProvider)? { current[id] }
    func provider<P>(_ id: ProviderID, as capability: P.Type) -> P? { current.provider(id, as: capability) }
    var ids: [ProviderID] { current.ids }

    /// Whether any factory builds providers from stored configurations (otherwise nothing needs refreshing).
    var readsStoredConfigs: Bool { !storedSources.isEmpty }

    /// The admin API's collection of that name (`oauthIdpConfigs`), if a registered factory offers it.
    func configCollection(named name: String) -> ProviderConfigCollection? {
        storedSources.lazy.compactMap(\.configCollection).first { $0.name == name }
    }

    /// Rebuilds from the stored configurations when they changed. Returns the providers it had to skip.
    ///
    /// Called by the refresh loop and right after an admin API change; when two overlap, the one that started
    /// reading later wins (a slow loop iteration cannot put back a registry older than the change).
    @discardableResult
    func refresh(from store: any UserStore) async throws -> [(providerId: String, reason: String)] {
        guard readsStoredConfigs else { return [] }
        let ticket = state.withLock { s in
            s.nextRefresh += 1
            return s.nextRefresh
        }
        let stored = try await store.read { tx in try Self.storedConfigs(tx) }
        guard stored != state.withLock({ $0.stored }) else { return [] }
        var providers = fixed
        var skipped: [(String, String)] = []
        var taken = Set(fixed.map(\.id))
        for outcome in storedSources.flatMap({ $0.providers(fromStored: stored, context: context) }) {
            switch outcome {
            case .built(let provider) where taken.insert(provider.id).inserted:
                providers.append(provider)
            case .built(let provider):
                skipped.append((provider.id.rawValue, "another provider already has this id"))
            case .refused(let id, let reason):
                skipped.append((id, reason))
            }
        }
        // Ids were made unique above (a stored provider never replaces one from the file, nor another stored one).
        let registry = try ProviderRegistry(providers)
        state.withLock { s in
            guard ticket > s.appliedRefresh else { return }
            s.registry = registry
            s.stored = stored
            s.appliedRefresh = ticket
        }
        return skipped
    }

    /// Refreshes until cancelled, logging what it skips.
    func refreshLoop(store: any UserStore, logger: Logger) async {
        guard readsStoredConfigs else { return }
        while !Task.isCancelled {
            do {
                for (id, reason) in try await refresh(from: store) {
                    logger.error("stored provider configuration skipped", [("provider", .string(id)), ("reason", .string(reason))])
                }
            } catch {
                logger.error("provider refresh failed", [("error", .string(String(describing: error)))])
            }
            try? await Task.sleep(for: Self.refreshInterval)
        }
    }

    /// Releases what providers hold (KDF pools), at shutdown.
    func shutdown() {
        for id in current.ids { current[id]?.shutdown() }
    }

    // MARK: Stored configurations (one settings row, changed in the caller's write transaction)

    static func storedConfigs(_ tx: any StoreTransaction) throws -> [StoredProviderConfig] {
        guard let text = try tx.setting(storedConfigsKey), case .object(let all)? = try? JSONParser.parse(text) else {
            return []
        }
        return all.compactMap { id, value in value.objectValue.map { StoredProviderConfig(providerId: id, config: $0) } }
            .sorted { $0.providerId < $1.providerId }
    }

    /// Stores (or with nil, removes) one provider's configuration.
    ///
    /// All configurations share one row, so this is a read-modify-write: the lock row is written first, which
    /// makes concurrent writers (other instances on PostgreSQL, whose write transactions are READ COMMITTED)
    /// wait for each other before reading, so no instance's change is lost to another's.
    static func setStoredConfig(_ providerId: String, _ config: JSONObject?, _ tx: any StoreTransaction) throws {
        try tx.setSetting(storedConfigsLockKey, value: "1")
        var all = JSONObject()
        for stored in try storedConfigs(tx) where stored.providerId != providerId { all[stored.providerId] = .object(stored.config) }
        if let config { all[providerId] = .object(config) }
        try tx.setSetting(storedConfigsKey, value: all.isEmpty ? nil : JSONSerializer.string(.object(all)))
    }
}
