import Foundation
import Storage

/// Brings a database to `PostgresMigrations.latestVersion`, in one transaction under an advisory lock:
/// several instances starting at the same moment queue on the lock, the first applies what is pending, the
/// others then find nothing left to do. Either every pending migration is applied and recorded in
/// `schema_migrations`, or none is.
enum PostgresMigrator {
    /// `pg_advisory_xact_lock` key: any fixed number other software on the database is unlikely to use.
    static let lockKey: Int64 = 0x6761_7465_686f_7573  // "gatehous"

    static func migrate(_ connection: PGConnection, migrations: [PostgresMigration] = PostgresMigrations.all) throws {
        let transaction = PostgresTransaction(connection: connection, kind: .write)
        do {
            try transaction.run("SELECT pg_advisory_xact_lock($1)", [.init(lockKey)])
            try transaction.run("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    BIGINT NOT NULL,
                    applied_at BIGINT NOT NULL,
                    CONSTRAINT schema_migrations_pkey PRIMARY KEY (version)
                )
                """)
            let applied = try transaction.run("SELECT version FROM schema_migrations ORDER BY version")
                .rows { row throws(StoreError) in Int(try row.integer(0)) }
            let known = migrations.last?.version ?? 0
            if let newest = applied.last, newest > known {
                throw StoreError.schemaTooNew(found: newest, known: known)
            }
            guard applied == Array(migrations.prefix(applied.count).map(\.version)) else {
                throw StoreError.corrupt("schema_migrations holds \(applied), expected a prefix of 1...\(known)")
            }
            for migration in migrations.dropFirst(applied.count) {
                try transaction.script(migration.sql)
                try transaction.run(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
                    [.init(migration.version), .init(Int64(Date().timeIntervalSince1970 * 1000))])
            }
            try transaction.commit()
        } catch {
            transaction.rollback()
            throw error
        }
    }
}
