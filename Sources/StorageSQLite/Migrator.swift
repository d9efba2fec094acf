import Foundation
import Storage

/// Brings a database to `Migrations.latestVersion` at open, in one write transaction: either every
/// pending migration is applied and recorded in `schema_migrations`, or none is.
enum Migrator {
    static func migrate(_ connection: Connection, migrations: [Migration] = Migrations.all) throws {
        try connection.transaction(begin: "BEGIN IMMEDIATE") {
            try connection.executeScript("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    INTEGER NOT NULL,
                    applied_at INTEGER NOT NULL,
                    CONSTRAINT schema_migrations_pkey PRIMARY KEY (version)
                ) STRICT
                """)
            let applied = try connection.query("SELECT version FROM schema_migrations ORDER BY version") {
                row throws(StoreError) in Int(try row.integer(0))
            }
            let known = migrations.last?.version ?? 0
            if let newest = applied.last, newest > known {
                throw StoreError.schemaTooNew(found: newest, known: known)
            }
            guard applied == Array(migrations.prefix(applied.count).map(\.version)) else {
                throw StoreError.corrupt("schema_migrations holds \(applied), expected a prefix of 1...\(known)")
            }
            for migration in migrations.dropFirst(applied.count) {
                try connection.executeScript(migration.sql)
                try connection.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                    [.init(migration.version), .init(Int64(Date().timeIntervalSince1970 * 1000))])
            }
        }
    }
}
