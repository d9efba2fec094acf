import AuthCore
import Foundation
import Storage
@testable import StorageSQLite
import TestSupport
import Testing

/// A clean close must leave `gatehouse.sqlite` complete on its own: operators copy that one file, and a
/// database whose committed data sits only in `-wal` loses it when the `-wal` file is not copied along.
@Suite("SQLiteUserStore close")
struct SQLiteCloseTests {
    private func userIds(inFileAlone path: String) throws -> [String] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = directory.file("alone.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let connection = try Connection(path: copy, mode: .readOnly)
        defer { connection.close() }
        return try connection.query("SELECT local_id FROM users ORDER BY local_id") { row throws(StoreError) in
            try row.text(0)
        }
    }

    @Test("after close the database file alone holds every committed user, and the WAL is gone")
    func closeFoldsTheWAL() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("gate.sqlite")
        let store = try SQLiteUserStore(path: path)
        let ids = (0..<20).map { String(format: "user-%02d", $0) }
        for id in ids {
            try await store.write { tx in try tx.insertUser(Fixture.user(id)) }
        }
        // Readers served requests too: they must not be the last connections to close.
        #expect(try await store.read { try $0.userCount() } == ids.count)
        #expect(try await store.read { try $0.user(localId: "user-00") } != nil)
        try await store.close()

        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(wal == 0)
        #expect(try userIds(inFileAlone: path) == ids)
    }

    @Test("a checkpoint another connection prevents is reported by close, and nothing committed is lost")
    func blockedCheckpointIsReported() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("gate.sqlite")
        let store = try SQLiteUserStore(path: path, busyTimeoutMilliseconds: 20)
        try await store.write { tx in try tx.insertUser(Fixture.user("kept")) }
        // Another process's open read transaction keeps the WAL in use, so it cannot be truncated.
        let other = try Connection(path: path, mode: .readOnly)
        try other.executeScript("BEGIN; SELECT count(*) FROM users;")

        await #expect {
            try await store.close()
        } throws: { error in
            guard case .unavailable(let message) = error as? StoreError else { return false }
            return message.contains("wal_checkpoint")
        }
        try other.executeScript("COMMIT")
        other.close()

        let reopened = try SQLiteUserStore(path: path)
        #expect(try await reopened.read { try $0.user(localId: "kept") } != nil)
        try await reopened.close()
    }
}
