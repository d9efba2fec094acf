import AuthCore
import HTTP
import WireFormats

/// Everything an operator can set. Defaults give a working single-machine gateway on 127.0.0.1:9099 with an
/// embedded SQLite file and generated keys. Every key is documented in the README's configuration table.
public struct GatewayConfiguration: Sendable, Equatable {
    public var projectId = "demo-gatehouse"
    /// Firebase's project number, returned as `project_id` by the Secure Token endpoint. Derived from the
    /// project id when not set.
    public var projectNumber: String?
    public var host = "127.0.0.1"
    public var port = 9099
    public var dataDirectory = "./gatehouse-data"
    /// SQLite in `dataDirectory` (default) or a shared PostgreSQL database, and where the master key comes from.
    public var database = DatabaseSettings()
    /// `iss` of ID tokens; default `https://securetoken.google.com/<projectId>`.
    public var issuer: String?
    /// Public base URL of the gateway (for `jwks_uri` in discovery); default from the request's Host header.
    public var publicURL: String?
    /// API keys accepted; empty means any non-empty key (as the Firebase emulator does).
    public var apiKeys: [String] = []
    /// Bearer tokens accepted as admin credentials from anywhere.
    public var adminTokens: [String] = []
    /// Networks from which `Authorization: Bearer owner` (what firebase-admin sends to an emulator) is admin
    /// outside emulator mode. Empty by default: the credential is public knowledge, so accepting it is an
    /// explicit choice for listed networks (see `OwnerCredentialRule`).
    public var trustedAdminNetworks: [String] = []
    /// Networks from which `GET /metrics` needs no credential when the request comes directly (not through a
    /// trusted proxy, no forwarding header); from elsewhere it needs an admin credential.
    public var metricsNetworks: [String] = ["127.0.0.0/8", "::1/128"]
    /// Peers whose `X-Forwarded-For` header is believed for the client IP.
    public var trustedProxies: [String] = []
    public var idTokenLifetimeSeconds: Int64 = 3600
    public var keyCacheMaxAgeSeconds: Int64 = 3600
    /// Clock skew tolerated when checking `iat`/`exp` of presented ID tokens.
    public var clockSkewSeconds: Int64 = 60
    /// Firebase's "allow multiple accounts with the same email" (default off: one account per email). The
    /// admin config API can change it at run time; this is the default until it does.
    public var allowDuplicateEmails = false
    /// Hosts (and their subdomains) a redirect sign-in may return the user to (`continueUri`).
    public var authorizedDomains = ["localhost"]
    public var http = HTTPSettings()
    /// The plugins' sections of the config file, by section name (`apple`, `email`, `anonymous`), as written.
    /// Each plugin's factory parses and validates its own section at start-up; the gateway never reads them.
    public var pluginSections: [String: JSONObject] = [:]
    /// The `GATEHOUSE_*` environment variables, where plugins read their secrets from.
    public var environment: [String: String] = [:]
    public var logLevel = LogLevel.info
    /// Emulator mode: a drop-in for the Firebase Auth Emulator (admin `Bearer owner` from anywhere).
    public var emulator = false
    /// Emulator mode normally refuses a non-loopback bind; this flag is the explicit second "yes".
    public var allowNonLoopback = false

    public init() {}

    /// Sets one value of a plugin's section by its dotted key (`"email.smtp.url"`), as a config file would:
    /// tests and tools configure plugins through the same path the file takes.
    public mutating func setPluginValue(_ dottedKey: String, _ value: JSONValue) {
        let path = dottedKey.split(separator: ".").map(String.init)
        guard let section = path.first else { return }
        pluginSections[section] = Self.setting(Array(path.dropFirst()), to: value, in: pluginSections[section] ?? JSONObject())
    }

    private static func setting(_ path: [String], to value: JSONValue, in object: JSONObject) -> JSONObject {
        guard let key = path.first else { return object }
        var object = object
        if path.count == 1 {
            object[key] = value
        } else {
            object[key] = .object(setting(Array(path.dropFirst()), to: value, in: object[key]?.objectValue ?? JSONObject()))
        }
        return object
    }

    /// The gateway's base URL for links it builds: `publicUrl` (without a trailing slash), else from host and port.
    public var publicBaseURL: String {
        publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            ?? "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)"
    }

    public var tokenSettings: TokenSettings {
        TokenSettings(projectId: projectId, issuer: issuer, idTokenLifetime: idTokenLifetimeSeconds,
                      keyCacheMaxAge: keyCacheMaxAgeSeconds, clockSkew: clockSkewSeconds)
    }
}

public struct HTTPSettings: Sendable, Equatable {
    public var maxBodyBytes = 1 << 20
    /// Body limit of the admin import routes (`accounts:batchCreate`, `uploadAccount`): 1000 users per call.
    public var maxImportBodyBytes = 16 << 20
    public var maxHeaderBytes = 16 * 1024
    public var maxHeaderCount = 100
    public var requestTimeoutSeconds: Double = 10
    public var idleTimeoutSeconds: Double = 30
    public var maxConnections = 10_000
    /// Open connections per client (IPv4 address or IPv6 /64); `trustedProxies` are exempt.
    public var maxConnectionsPerClient = 256
    /// 0 means one per core.
    public var eventLoops = 0
    /// `batch` (default): the loops' wake-ups do not preempt the threads signing tokens; `normal`: they may.
    public var eventLoopScheduling = EventLoopScheduling.batch
    public init() {}
}

public enum LogLevel: String, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
