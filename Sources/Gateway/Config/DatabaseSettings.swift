import ProviderKit
import AuthCore
import StoragePostgres

/// Where the data lives: the embedded SQLite file in the data directory (default), or a PostgreSQL database
/// that several gateway instances share (`databaseUrl`).
public struct DatabaseSettings: Sendable, Equatable {
    /// `postgres://user:password@host:port/database?sslmode=...`; nil means SQLite in the data directory.
    /// It may hold a password: it is never logged (see `ConnectionURL.redacted`).
    public var url: String?
    /// PostgreSQL connections (and store worker threads) per instance.
    public var poolSize = 8
    /// A key file given explicitly (`masterKeyFile`): used as it is, never created.
    public var masterKeyFile: String?

    public init() {}

    public var usesPostgres: Bool { url != nil }
}

/// Reads `databaseUrl`, `databasePoolSize` and `masterKeyFile` from the file, the environment and flags.
enum DatabaseSettingsLoader {
    static let fileKeys: Set = ["databaseUrl", "databasePoolSize", "masterKeyFile"]

    static func apply(file r: ConfigSection, to d: inout DatabaseSettings) throws {
        d.url = try r.string("databaseUrl") ?? d.url
        d.poolSize = try r.int("databasePoolSize") ?? d.poolSize
        d.masterKeyFile = try r.string("masterKeyFile") ?? d.masterKeyFile
    }

    static func apply(environment e: [String: String], to d: inout DatabaseSettings) throws {
        if let v = e["GATEHOUSE_DATABASE_URL"], !v.isEmpty { d.url = v }
        if let v = e["GATEHOUSE_DATABASE_POOL_SIZE"] {
            d.poolSize = try ConfigurationLoader.integer(v, "GATEHOUSE_DATABASE_POOL_SIZE")
        }
        if let v = e["GATEHOUSE_MASTER_KEY_FILE"], !v.isEmpty { d.masterKeyFile = v }
    }

    static func apply(flags f: [String: String], to d: inout DatabaseSettings) {
        if let v = f["database-url"] { d.url = v }
        if let v = f["master-key-file"] { d.masterKeyFile = v }
    }

    static func validate(_ d: DatabaseSettings) throws {
        if let url = d.url, !ConnectionURL.isPostgres(url) {
            throw ConfigurationLoader.Failure(
                "databaseUrl must be a PostgreSQL URL (postgres://user:password@host:port/database), got \"\(ConnectionURL.redacted(url).prefix(40))\"")
        }
        guard (1...500).contains(d.poolSize) else { throw ConfigurationLoader.Failure("databasePoolSize must be 1-500") }
    }
}
