import AuthCore
import Outbound

/// What the gateway hands a factory to build providers with. Everything a provider touches outside itself
/// comes through here, as a narrow protocol or value, so providers never import the gateway, HTTP or storage,
/// and tests build providers with fakes (an in-memory fetcher, a manual clock).
public struct ProviderContext: Sendable {
    /// Outbound HTTP to the identity provider (every endpoint is a configurable base URL).
    public let fetcher: any HTTPFetching
    public let time: any TimeSource
    /// Seals secrets at rest (provider refresh tokens) under the master key; each value names a purpose.
    public let sealer: Sealer
    /// The Firebase project this gateway serves.
    public let projectId: String
    /// The gateway's public base URL (`publicUrl`, else built from host and port), for links and callback URLs
    /// a provider shows (a deletion-status page), without a trailing slash.
    public let publicBaseURL: String
    /// The data directory (default location of operator-editable files such as mail templates).
    public let dataDirectory: String
    /// Emulator mode (a drop-in for the Firebase Auth Emulator).
    public let emulator: Bool
    /// Abuse counters every instance sharing the database sees (password attempts, sends), so several instances
    /// do not multiply an attacker's budget.
    public let counters: any AbuseCounters
    private let makeLedger: @Sendable (String) -> any NonceLedger
    private let makeLog: @Sendable (ProviderID) -> any ProviderLog
    private let makeRecords: @Sendable (ProviderID) -> any ProviderRecords

    public init(fetcher: any HTTPFetching, time: any TimeSource, sealer: Sealer, projectId: String,
                publicBaseURL: String, dataDirectory: String, emulator: Bool, counters: any AbuseCounters,
                ledger: @escaping @Sendable (String) -> any NonceLedger,
                log: @escaping @Sendable (ProviderID) -> any ProviderLog,
                records: @escaping @Sendable (ProviderID) -> any ProviderRecords) {
        self.fetcher = fetcher
        self.time = time
        self.sealer = sealer
        self.projectId = projectId
        self.publicBaseURL = publicBaseURL
        self.dataDirectory = dataDirectory
        self.emulator = emulator
        self.counters = counters
        self.makeLedger = ledger
        self.makeLog = log
        self.makeRecords = records
    }

    /// A durable single-use ledger (nonces, notification ids) for values of one `kind` (`"apple.nonce"`):
    /// a value is accepted once across restarts and across instances sharing the database.
    public func ledger(kind: String) -> any NonceLedger { makeLedger(kind) }

    /// The operator's log, with every line naming `provider`.
    public func log(for provider: ProviderID) -> any ProviderLog { makeLog(provider) }

    /// Small durable records private to `provider` (e.g. a deletion request's status, shown on its page).
    public func records(for provider: ProviderID) -> any ProviderRecords { makeRecords(provider) }
}

/// Small, expiring, provider-private key-value records kept in the gateway's store, so every instance sees them.
/// Keys are stored hashed (a record is found only by whoever knows its key, e.g. a confirmation code).
public protocol ProviderRecords: Sendable {
    /// Stores `value` under `key` until `expiresAt` (milliseconds), replacing an earlier value.
    func put(_ key: String, value: String, expiresAt: Int64) async throws
    /// The value under `key`, or nil when there is none or it expired.
    func value(for key: String) async throws -> String?
}
