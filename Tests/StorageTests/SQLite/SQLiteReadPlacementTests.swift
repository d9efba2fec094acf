import AuthCore
import Foundation
import Storage
@testable import StorageSQLite
import Synchronization
import Testing

/// Reads run on the caller's thread while a reader connection is free, and wait on the reader pool otherwise.
@Suite("SQLite reads in place")
struct SQLiteReadPlacementTests {
    /// How many reads held a connection at once, at most.
    final class Occupancy: Sendable {
        private let counts = Mutex((inside: 0, most: 0))
        func enter() { counts.withLock { $0.inside += 1; $0.most = max($0.most, $0.inside) } }
        func leave() { counts.withLock { $0.inside -= 1 } }
        var most: Int { counts.withLock { $0.most } }
    }

    @Test("a read with a free connection runs on the caller's thread, not on the reader pool")
    func readRunsInPlace() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteUserStore(path: directory.file("r.sqlite"), readerCount: 2)
        try await store.write { tx in try tx.insertUser(Fixture.user("u-1")) }
        let (pool, found) = try await store.read { tx in
            (WorkerPool.currentPoolName, try tx.user(localId: "u-1")?.localId)
        }
        try await store.close()
        #expect(pool == nil)
        #expect(found == "u-1")
    }

    @Test("more reads at once than reader connections all succeed: the extra ones wait for a connection")
    func readsBeyondTheConnectionsWait() async throws {
        let directory = try TemporaryDirectory()
        // One connection: while one read holds it on a cooperative thread, a read on the other thread finds none
        // free and goes to the reader pool, which must wait for it rather than fail.
        let store = try SQLiteUserStore(path: directory.file("r.sqlite"), readerCount: 1)
        try await store.write { tx in try tx.insertUser(Fixture.user("u-1")) }
        let occupancy = Occupancy()
        let found = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await store.read { tx in
                        occupancy.enter()
                        usleep(20_000)  // holds the connection, so that others find none free
                        occupancy.leave()
                        return try tx.user(localId: "u-1")?.localId
                    }
                }
            }
            var all: [String?] = []
            for try await localId in group { all.append(localId) }
            return all
        }
        try await store.close()
        #expect(found == Array(repeating: "u-1", count: 8))
        #expect(occupancy.most == 1)
    }
}
