import AuthCore
import Foundation
import HTTP
import Storage
import StorageSQLite

/// The `gateway` command: `serve`, `keys rotate`, `keys list`, `service-accounts …`, `users import|export FILE`,
/// `backup FILE`, `migrate-storage`.
public enum GatewayCommand {

    /// Runs the command and returns the process exit code.
    public static func main(_ argv: [String], environment: [String: String]) async -> Int32 {
        // Everything the gateway writes (database, WAL, backups, key file) holds secrets or personal data.
        umask(0o077)
        let logger = Logger(minimumLevel: LogLevel(rawValue: environment["GATEHOUSE_LOG_LEVEL"]?.lowercased() ?? "") ?? .info)
        do {
            let arguments = try Arguments(argv)
            let words = arguments.positional
            if arguments.flags["help"] != nil || words.isEmpty || words.first == "help" {
                // `gateway help COMMAND`, `gateway COMMAND --help` and `gateway --help`.
                print(HelpText.text(for: words.first == "help" ? words.dropFirst().first : words.first))
                return 0
            }
            let configuration = try ConfigurationLoader.load(flags: arguments.flags, environment: environment)
            switch words {
            case ["serve"]:
                // Before anything starts threads: from now on SIGTERM/SIGINT start a drain and are never lost.
                SignalWaiter.install()
                // A second gateway on the same address would share the port (SO_REUSEPORT) and split clients
                // between two databases: refuse before opening anything.
                try HTTPServer.checkAvailable(host: configuration.host, port: configuration.port)
                let app = try await GatewayApp.make(configuration: configuration, environment: environment,
                                                    logger: Logger(minimumLevel: configuration.logLevel))
                if configuration.emulator {
                    logger.warning("EMULATOR MODE: unsigned test credentials are accepted and Bearer owner is admin from anywhere; never use with real users")
                } else if !configuration.trustedAdminNetworks.isEmpty {
                    logger.warning("Bearer owner is admin for requests coming directly from trustedAdminNetworks: every process there is an administrator; prefer service accounts or adminTokens",
                                   [("networks", .string(configuration.trustedAdminNetworks.joined(separator: ",")))])
                }
                try await app.run()
                return 0
            case ["keys", "rotate"]:
                let record = try await KeyCommands.rotate(configuration, environment: environment)
                print("rotated: new key \(record.kid) is published now and signs from \(KeyCommands.date(record.activatesAt))")
                return 0
            case ["keys", "list"]:
                print(try await KeyCommands.list(configuration))
                return 0
            case let words where words.first == "service-accounts":
                print(try await ServiceAccountCommands.run(words, flags: arguments.flags, configuration: configuration))
                return 0
            case let words where words.first == "users":
                let (code, text) = try await UsersCommands.run(words, flags: arguments.flags, configuration: configuration)
                print(text)
                return code
            case ["migrate-storage"]:
                print(try await MigrateStorageCommand.run(flags: arguments.flags))
                return 0
            case let words where words.count == 2 && words[0] == "backup":
                if configuration.database.usesPostgres {
                    throw Arguments.Failure(description: "backup copies the SQLite database; for PostgreSQL use pg_dump (see README)")
                }
                let store = try SQLiteUserStore(path: DataDirectory.databasePath(configuration.dataDirectory))
                try await store.backup(to: words[1])
                await closeReporting(store)
                print("backup written to \(words[1]); back up the master key too (see README)")
                return 0
            default:
                throw Arguments.Failure(description: "unknown command \"\(words.joined(separator: " "))\" (see gateway --help)")
            }
        } catch let error as StoreError {
            printError("gateway: \(StoreErrorText.describe(error))")
            return 2
        } catch {
            printError("gateway: \(error)")
            return 2
        }
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Closes a one-shot command's store. What the command wrote is committed either way, so a failed close
    /// is a warning, not a failed command: the WAL stays for the running gateway (or the next start) to fold in.
    static func closeReporting(_ store: any UserStore) async {
        do {
            try await store.close()
        } catch {
            printError("gateway: warning: the database did not close cleanly (\(error)); keep its -wal file next to it")
        }
    }
}

/// `gateway keys ...`: key management against the configured database (safe while gateways run).
enum KeyCommands {
    static func services(_ configuration: GatewayConfiguration, environment: [String: String]) throws -> SigningKeyService {
        let (masterKey, _) = try StoreOpening.masterKey(configuration, environment: environment)
        let store = try StoreOpening.openStore(configuration)
        return SigningKeyService(store: store, sealer: Sealer(masterKey: masterKey),
                                 settings: configuration.tokenSettings, time: SystemTime())
    }

    static func rotate(_ configuration: GatewayConfiguration, environment: [String: String]) async throws -> SigningKeyRecord {
        let keys = try services(configuration, environment: environment)
        let ring = KeyRing()
        try await keys.prepare(ring)
        let record = try await keys.rotate()
        await GatewayCommand.closeReporting(keys.store)
        return record
    }

    static func list(_ configuration: GatewayConfiguration) async throws -> String {
        let store = try StoreOpening.openStore(configuration)
        let records = try await store.read { try $0.signingKeys() }
        await GatewayCommand.closeReporting(store)
        let now = SystemTime().nowSeconds
        let active = SigningKeys.active(records, at: now)
        var lines = ["kid                                       created               activates             unpublished"]
        for r in records {
            let marker = r.kid == active ? " (signing)" : (SigningKeys.isPublished(r, at: now) ? "" : " (retired)")
            lines.append("\(r.kid)  \(date(r.createdAt))  \(date(r.activatesAt))  \(r.unpublishAt.map(date) ?? "-")\(marker)")
        }
        return lines.joined(separator: "\n")
    }

    static func date(_ seconds: Int64) -> String {
        String(RFC3339.string(milliseconds: seconds * 1000).prefix(19)) + "Z"
    }
}
