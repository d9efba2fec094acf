import AuthCore
import HTTP
import Storage
import Synchronization
import WireFormats
import ProviderKit

/// What every operation handler may use. Built once at start-up by `GatewayApp`.
struct GatewayServices: Sendable {
    let configuration: GatewayConfiguration
    let store: any UserStore
    let sessions: SessionService
    let keyRing: KeyRing
    /// The provider plugins running now (from the file, and stored ones refreshed from the database).
    let providers: ProviderDirectory
    /// Seals and opens secrets at rest under the master key.
    let sealer: Sealer
    let time: any TimeSource
    let logger: Logger
    let readiness: Readiness
    let projectSettings: ProjectSettings
    let linking: LinkingService
    let pendingCredentials: PendingCredentials
    /// Present only in emulator mode: accepts fake IdP credentials for any provider.
    let emulatorVerifier: EmulatorIdpVerifier?
    /// Email/password accounts, OOB codes and action mail.
    let email: EmailServices
    /// Service accounts trusted for the admin API (JWT-bearer grant) and for signing custom tokens.
    let serviceAccounts: ServiceAccountRegistry
    /// The access tokens the JWT-bearer grant issues to service accounts.
    let accessTokens: AdminAccessTokens
    /// Counters and histograms for `GET /metrics`.
    let metrics: GatewayMetrics
    /// Durable delivery of messages through the code-sender plugins.
    var outbox: MessageOutbox { email.outbox }
}
