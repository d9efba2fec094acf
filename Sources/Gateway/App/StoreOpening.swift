import AuthCore
import Crypto
import Foundation
import ProviderKit
import Storage
import StoragePostgres

/// Opens the store the configuration names (SQLite in the data directory, or PostgreSQL) and finds the
/// master key that goes with it. With PostgreSQL several instances share the database, so they must share
/// the key too: it comes from `GATEHOUSE_MASTER_KEY` or an explicit `masterKeyFile`, never from a file each
/// data directory would generate for itself.
enum StoreOpening {
    static func openStore(_ configuration: GatewayConfiguration) throws -> any UserStore {
        guard let url = configuration.database.url else { return try DataDirectory.openStore(configuration.dataDirectory) }
        return try PostgresUserStore(options: PostgresOptions(url: url, poolSize: configuration.database.poolSize))
    }

    /// Where the data lives, safe to log: the SQLite file, or the PostgreSQL URL without its password.
    static func location(_ configuration: GatewayConfiguration) -> String {
        configuration.database.url.map(ConnectionURL.redacted) ?? DataDirectory.databasePath(configuration.dataDirectory)
    }

    /// The master key and where it came from (for the start-up log; never the key itself).
    static func masterKey(_ configuration: GatewayConfiguration, environment: [String: String]) throws
        -> (SymmetricKey, source: String) {
        let value = environment["GATEHOUSE_MASTER_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if value == nil, let file = configuration.database.masterKeyFile {
            return (try MasterKey.read(file: file), "file \(file)")
        }
        if value == nil, configuration.database.usesPostgres {
            throw ConfigurationLoader.Failure(
                "with a PostgreSQL database every instance must use the same master key: set GATEHOUSE_MASTER_KEY (or masterKeyFile); a key generated in each data directory would differ between instances")
        }
        return try MasterKey.load(environmentValue: value, dataDirectory: configuration.dataDirectory)
    }
}
