import AuthCore
import WireFormats

/// A provider configuration kept in the database rather than the file (created through the admin API, e.g.
/// an `oidc.<name>` provider): every instance sharing the database builds it within the gateway's refresh
/// interval, without a restart.
public struct StoredProviderConfig: Sendable, Equatable {
    public var providerId: String
    /// The factory's own format.
    public var config: JSONObject

    public init(providerId: String, config: JSONObject) {
        self.providerId = providerId
        self.config = config
    }
}

/// What building one stored configuration came to. A broken stored configuration never stops the others (or
/// the gateway): it is skipped and the reason logged.
public enum StoredProviderOutcome: Sendable {
    case built(any CredentialProvider)
    case refused(providerId: String, reason: String)
}

/// A factory that also builds providers from stored configurations. The gateway's provider directory rebuilds
/// the registry from configuration plus store (see the gateway's `ProviderDirectory`), asking each such factory
/// for the stored configurations it owns.
public protocol StoredProviderFactory: ProviderFactory {
    /// Whether a stored provider id is this factory's (`oidc.` prefix for generic OpenID Connect).
    func owns(_ providerId: String) -> Bool
    /// Builds one stored configuration; throws `ConfigurationError` (or any error) to have it skipped.
    func provider(fromStored record: StoredProviderConfig, settings: Settings,
                  context: ProviderContext) throws -> any CredentialProvider
}

extension StoredProviderFactory {
    func erasedProviders(fromStored records: [StoredProviderConfig], settings: any Sendable,
                         context: ProviderContext) -> [StoredProviderOutcome] {
        guard let settings = settings as? Settings else { return [] }
        return records.filter { owns($0.providerId) }.map { record in
            do {
                return .built(try provider(fromStored: record, settings: settings, context: context))
            } catch {
                return .refused(providerId: record.providerId, reason: String(describing: error))
            }
        }
    }
}
