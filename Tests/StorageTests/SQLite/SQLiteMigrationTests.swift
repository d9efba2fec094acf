import AuthCore
import Foundation
import Storage
@testable import StorageSQLite
import TestSupport
import Testing

@Suite("SQLiteUserStore schema upgrades")
struct SQLiteMigrationTests {
    /// Writes a database as a build that knew only migration 1 would have left it, with one user, their two
    /// refresh tokens and one one-time token in it.
    private func writeVersion1Database(at path: String) throws {
        let connection = try Connection(path: path, mode: .readWrite)
        defer { connection.close() }
        try Migrator.migrate(connection, migrations: [Migrations.initialSchema])
        try connection.transaction(begin: "BEGIN IMMEDIATE") {
            let transaction = SQLiteTransaction(connection: connection)
            // Version 1's columns: every one but those later migrations added (initial_email, version 4).
            let columns = UserRows.columns.replacingOccurrences(of: ", initial_email", with: "")
            let values = Array(UserRows.values(Self.version1User).dropLast())
            let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
            _ = try connection.execute("INSERT INTO users (\(columns)) VALUES (\(placeholders))", values)
            try transaction.insertOneTimeToken(Fixture.oneTimeToken("code"))
            for value in ["r1", "r2"] { try transaction.insertRefreshToken(Fixture.refreshToken(value, localId: "alice")) }
        }
    }

    /// The fixture user as a version 1 database can hold it (no `initialEmail`).
    static var version1User: UserRecord {
        var user = Fixture.completeUser("alice")
        user.initialEmail = nil
        return user
    }

    private func tableNames(_ path: String) throws -> [String] {
        let connection = try Connection(path: path, mode: .readOnly)
        defer { connection.close() }
        return try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
            row throws(StoreError) in try row.text(0)
        }
    }

    @Test("opening a version 1 database upgrades it to the outbox, counter, initialEmail and refresh-token schema and keeps its data")
    func upgradesVersion1() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("v1.sqlite")
        try writeVersion1Database(at: path)
        #expect(try !tableNames(path).contains("outbox"))

        let store = try SQLiteUserStore(path: path)
        let kept = try await store.read { tx in
            (try tx.user(localId: "alice"), try tx.oneTimeToken(kind: "oob", hash: Fixture.hash("code")),
             try ["r1", "r2"].map { try tx.refreshToken(localId: "alice", hash: Fixture.hash($0)) })
        }
        try await store.write { try $0.insertOutboxItem(Fixture.outboxItem("job")) }
        let counted = try await store.write { try $0.addToCounter("k", windowEndsAt: 10, delta: 1, limit: 5) }
        let queued = try await store.read { try $0.outboxItems(kind: "mail") }
        try await store.close()

        #expect(kept.0 == Self.version1User)
        #expect(kept.1 == Fixture.oneTimeToken("code"))
        #expect(kept.2 == ["r1", "r2"].map { Fixture.refreshToken($0, localId: "alice") })
        #expect(queued == [Fixture.outboxItem("job")])
        #expect(counted == 1)
        let connection = try Connection(path: path, mode: .readOnly)
        defer { connection.close() }
        let versions = try connection.query("SELECT version FROM schema_migrations ORDER BY version") {
            row throws(StoreError) in try row.integer(0)
        }
        #expect(versions == Array(1...Int64(Migrations.latestVersion)))
        let index = try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'outbox' AND sql IS NOT NULL"
        ) { row throws(StoreError) in try row.text(0) }
        #expect(index == ["outbox_kind_next_attempt_at_idx"])
        // Refresh tokens: one B-tree keyed by (local_id, token_hash), no rowid, no other index, same constraints.
        let tokenTable = try connection.query(
            "SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = 'refresh_tokens'"
        ) { row throws(StoreError) in [try row.text(0), try row.text(1), row.optionalText(2) ?? ""] }
        #expect(tokenTable.count == 1)
        #expect(tokenTable.first?[1] == "refresh_tokens")
        let definition = tokenTable.first?[2] ?? ""
        #expect(definition.contains("WITHOUT ROWID"))
        #expect(definition.contains("CONSTRAINT refresh_tokens_pkey PRIMARY KEY (local_id, token_hash)"))
        #expect(definition.contains("CONSTRAINT refresh_tokens_user_fkey FOREIGN KEY (local_id) REFERENCES users"))
    }
}
