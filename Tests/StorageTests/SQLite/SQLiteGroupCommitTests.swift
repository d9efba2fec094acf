import AuthCore
import Foundation
import Storage
@testable import StorageSQLite
import Testing

/// Concurrent writes share transactions (`GroupCommit`); each must still succeed or fail on its own.
@Suite("SQLite group commit")
struct SQLiteGroupCommitTests {
    private struct Refused: Error {}

    @Test("concurrent writes: a body that throws is undone alone, a conflict fails only its writer, the rest commit")
    func writesStayIndependent() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("gate.sqlite")
        let store = try SQLiteUserStore(path: path)
        try await store.write { tx in try tx.insertUser(Fixture.user("taken")) }

        let outcomes = await withTaskGroup(of: (Int, String).self) { group in
            for index in 0..<300 {
                group.addTask {
                    do {
                        try await store.write { tx in
                            switch index % 3 {
                            case 0:
                                try tx.insertUser(Fixture.user("user-\(index)"))
                            case 1:
                                // Writes, then refuses: its insert must not survive.
                                try tx.insertUser(Fixture.user("refused-\(index)"))
                                throw Refused()
                            default:
                                // A second row first, then a unique conflict: both must be undone.
                                try tx.insertUser(Fixture.user("partial-\(index)"))
                                try tx.insertUser(Fixture.user("taken"))
                            }
                        }
                        return (index, "ok")
                    } catch is Refused {
                        return (index, "refused")
                    } catch StoreError.uniqueViolation(.localId) {
                        return (index, "conflict")
                    } catch {
                        return (index, "other: \(error)")
                    }
                }
            }
            var all: [Int: String] = [:]
            for await (index, outcome) in group { all[index] = outcome }
            return all
        }
        for (index, outcome) in outcomes {
            #expect(outcome == ["ok", "refused", "conflict"][index % 3], "write \(index)")
        }
        let stored = try await store.read { tx in try tx.userCount() }
        #expect(stored == 1 + 100)
        #expect(try await store.read { try $0.user(localId: "user-0") } != nil)
        #expect(try await store.read { try $0.user(localId: "refused-1") } == nil)
        #expect(try await store.read { try $0.user(localId: "partial-2") } == nil)
        try await store.close()

        // What was acknowledged is in the file after the store closed.
        let reopened = try SQLiteUserStore(path: path)
        #expect(try await reopened.read { try $0.userCount() } == 101)
        try await reopened.close()
    }
}
