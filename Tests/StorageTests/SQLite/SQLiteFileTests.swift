import AuthCore
import Foundation
import Storage
@testable import StorageSQLite
import TestSupport
import Testing

@Suite("SQLiteUserStore on disk")
struct SQLiteFileTests {
    /// Reads one column of text rows straight from the file, bypassing the store.
    private func rawRows(_ path: String, _ sql: String) throws -> [String] {
        let connection = try Connection(path: path, mode: .readOnly)
        defer { connection.close() }
        return try connection.query(sql) { row throws(StoreError) in row.optionalText(0) ?? "NULL" }
    }

    @Test("data survives closing and reopening the file")
    func survivesReopen() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("gate.sqlite")
        let first = try SQLiteUserStore(path: path)
        try await first.write { tx in
            try tx.insertUser(Fixture.completeUser("alice"))
            try tx.insertIdentity(Fixture.identity("apple.com", "sub", localId: "alice"))
            try tx.setSetting("allowDuplicateEmails", value: "false")
        }
        try await first.close()
        let second = try SQLiteUserStore(path: path)
        let found = try await second.read { tx in
            (try tx.user(localId: "alice"), try tx.identities(localId: "alice").count, try tx.setting("allowDuplicateEmails"))
        }
        try await second.close()
        #expect(found.0 == Fixture.completeUser("alice"))
        #expect(found.1 == 1)
        #expect(found.2 == "false")
    }

    @Test("migrations are numbered from 1 without gaps")
    func migrationNumbering() {
        #expect(Migrations.all.map(\.version) == Array(1...Migrations.latestVersion))
    }

    @Test("migrations are recorded once and reopening does not run them again")
    func migrationsRecordedOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("gate.sqlite")
        try await SQLiteUserStore(path: path).close()
        let query = "SELECT version || ':' || applied_at FROM schema_migrations ORDER BY version"
        let recorded = try rawRows(path, query)
        try await SQLiteUserStore(path: path).close()
        #expect(recorded.count == Migrations.latestVersion)
        #expect(recorded.map { $0.split(separator: ":")[0] } == Migrations.all.map { Substring("\($0.version)") })
        #expect(recorded.allSatisfy { (Int64($0.split(separator: ":")[1]) ?? 0) > 1_600_000_000_000 })
        #expect(try rawRows(path, query) == recorded)
    }

    @Test("a database migrated by a newer build is refused")
    func newerSchemaRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("gate.sqlite")
        try await SQLiteUserStore(path: path).close()
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute("INSERT INTO schema_migrations (version, applied_at) VALUES (999, 0)")
        connection.close()
        #expect(throws: StoreError.schemaTooNew(found: 999, known: Migrations.latestVersion)) {
            _ = try SQLiteUserStore(path: path)
        }
    }

    @Test("a file that is not a database is reported as corrupt")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("junk.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteUserStore(path: path)
        } throws: { error in
            if case .corrupt = error as? StoreError { true } else { false }
        }
    }

    @Test("the database runs in WAL mode")
    func walMode() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("gate.sqlite")
        let store = try SQLiteUserStore(path: path)
        try await store.write { try $0.insertUser(Fixture.user("a")) }
        #expect(try rawRows(path, "PRAGMA journal_mode") == ["wal"])
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try await store.close()
    }

    @Test("a backup taken during writes opens as a complete, consistent database")
    func backupDuringWrites() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteUserStore(path: directory.file("gate.sqlite"))
        try await store.write { tx in
            for index in 0..<100 { try tx.insertUser(Fixture.user(String(format: "base-%03d", index))) }
            try tx.insertIdentity(Fixture.identity("apple.com", "sub", localId: "base-000"))
        }
        let writer = Task {
            for index in 0..<200 {
                try await store.write { tx in
                    try tx.insertUser(Fixture.user("late-\(index)"))
                    try tx.insertRefreshToken(Fixture.refreshToken("late-\(index)", localId: "late-\(index)"))
                }
            }
        }
        let backupPath = directory.file("copy.sqlite")
        try await store.backup(to: backupPath)
        try await writer.value
        try await store.close()

        #expect(try rawRows(backupPath, "PRAGMA integrity_check") == ["ok"])
        let copy = try SQLiteUserStore(path: backupPath)
        let contents = try await copy.read { tx in
            (try tx.userCount(), try tx.users(afterLocalId: nil, limit: 1_000),
             try tx.identity(providerId: "apple.com", federatedId: "sub")?.localId)
        }
        let lateUsers = contents.1.filter { $0.localId.hasPrefix("late-") }.map(\.localId)
        let tokens = try await copy.read { tx in
            try lateUsers.filter { try tx.refreshToken(localId: $0, hash: Fixture.hash($0)) != nil }.count
        }
        try await copy.close()
        #expect((100...300).contains(contents.0))
        #expect(contents.1.filter { $0.localId.hasPrefix("base-") }.count == 100)
        #expect(contents.2 == "base-000")
        #expect(tokens == lateUsers.count)
    }

    @Test("a backup never overwrites an existing file")
    func backupRefusesExistingFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteUserStore(path: directory.file("gate.sqlite"))
        let target = directory.file("copy.sqlite")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: target))
        await #expect(throws: StoreError.unavailable("backup destination \(target) already exists")) {
            try await store.backup(to: target)
        }
        try await store.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data([1, 2, 3]))
    }
}
