import Foundation
import Storage
import StoragePostgres
import StorageSQLite

/// `gateway migrate-storage --from SOURCE --to TARGET`: copies every record of one database into another,
/// empty one (SQLite to PostgreSQL, or back). Run it with the gateways stopped.
///
/// Sealed values (signing keys, provider secrets, queued mail) are copied as they are, so the target needs
/// the source's master key; the command does not need the key itself.
enum MigrateStorageCommand {
    static func run(flags: [String: String]) async throws -> String {
        guard let from = flags["from"], let to = flags["to"] else {
            throw Arguments.Failure(description: "migrate-storage needs --from SOURCE and --to TARGET (see gateway help migrate-storage)")
        }
        let source = try open(from, isTarget: false)
        let target: any UserStore
        do { target = try open(to, isTarget: true) } catch {
            await GatewayCommand.closeReporting(source)
            throw error
        }
        let report: StoreCopier.Report
        do {
            report = try await StoreCopier(from: source, to: target).copy()
        } catch {
            await GatewayCommand.closeReporting(source)
            await GatewayCommand.closeReporting(target)
            throw error
        }
        await GatewayCommand.closeReporting(source)
        await GatewayCommand.closeReporting(target)
        return """
            copied \(report.users) users, \(report.identities) identities, \(report.refreshTokens) refresh tokens, \
            \(report.signingKeys) signing keys, \(report.oneTimeTokens) one-time tokens, \(report.outboxItems) outbox items, \
            \(report.settings) settings from \(describe(from)) to \(describe(to)).
            Sealed secrets were copied as they are: start the gateways on the target with the source's master key \
            (GATEHOUSE_MASTER_KEY; for a data directory, the contents of its master.key).
            """
    }

    /// A PostgreSQL URL, a SQLite database file, or a data directory holding `gatehouse.sqlite`. A source
    /// must exist (a mistyped path must not read as an empty database); a SQLite target is created.
    static func open(_ location: String, isTarget: Bool) throws -> any UserStore {
        if ConnectionURL.isPostgres(location) { return try PostgresUserStore(options: PostgresOptions(url: location, poolSize: 2)) }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            let database = DataDirectory.databasePath(location)
            guard isTarget || FileManager.default.fileExists(atPath: database) else {
                // Opening it would create an empty database inside the source and "copy" nothing.
                throw Arguments.Failure(description: "migrate-storage: the data directory \(location) holds no gatehouse.sqlite")
            }
            return try SQLiteUserStore(path: database)
        }
        guard exists || isTarget else {
            throw Arguments.Failure(description: "migrate-storage: \(location) is neither a PostgreSQL URL nor an existing SQLite database or data directory")
        }
        return try SQLiteUserStore(path: location)
    }

    static func describe(_ location: String) -> String {
        ConnectionURL.isPostgres(location) ? ConnectionURL.redacted(location) : location
    }
}
