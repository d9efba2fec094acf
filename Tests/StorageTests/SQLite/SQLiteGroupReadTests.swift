import AuthCore
import Dispatch
import Storage
@testable import StorageSQLite
import Synchronization
import TestSupport
import Testing

/// Reads that queue up together share one read transaction (`GroupRead`); each still succeeds or fails on its
/// own, and sees every write acknowledged before it was asked for.
@Suite("SQLite group read")
struct SQLiteGroupReadTests {
    private struct Refused: Error {}

    /// Runs `reads` as one batch: every reader thread is held (by jobs that block those threads only, never a
    /// cooperative one) until all the reads have queued, then let go.
    private func runAsOneBatch(_ store: SQLiteUserStore, _ reads: [@Sendable (any StoreTransaction) throws -> Int])
        async -> [Result<Int, any Error>]
    {
        let release = DispatchSemaphore(value: 0)
        let holding = Atomic<Int>(0)
        for _ in 0..<store.readerPool.threadCount {
            store.readerPool.submit {
                holding.add(1, ordering: .relaxed)
                release.wait()
            }
        }
        while holding.load(ordering: .relaxed) < store.readerPool.threadCount {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return await withTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
            for (index, body) in reads.enumerated() {
                group.addTask {
                    do { return (index, .success(try await store.read(body))) } catch { return (index, .failure(error)) }
                }
                // One at a time, so the batch holds the reads in the order given.
                while store.groupRead.waitingCount <= index { try? await Task.sleep(for: .milliseconds(1)) }
            }
            for _ in 0..<store.readerPool.threadCount { release.signal() }
            var results = [Result<Int, any Error>?](repeating: nil, count: reads.count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    @Test("reads that queued together run in one transaction, each with its own result")
    func queuedReadsShareATransaction() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteUserStore(path: directory.file("gate.sqlite"))
        for index in 0..<5 { try await store.write { tx in try tx.insertUser(Fixture.user("user-\(index)")) } }
        let before = store.groupRead.transactionsBegun.load(ordering: .relaxed)

        let results = await runAsOneBatch(store, (0..<5).map { index in
            { tx in try tx.user(localId: "user-\(index)") == nil ? -1 : index }
        })

        #expect(results.map { try? $0.get() } == [0, 1, 2, 3, 4])
        #expect(store.groupRead.transactionsBegun.load(ordering: .relaxed) - before == 1)
        try await store.close()
    }

    @Test("a read that throws fails alone; the reads after it run in a new transaction")
    func failingReadFailsAlone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteUserStore(path: directory.file("gate.sqlite"))
        try await store.write { tx in try tx.insertUser(Fixture.user("present")) }
        let before = store.groupRead.transactionsBegun.load(ordering: .relaxed)

        let results = await runAsOneBatch(store, [
            { tx in try tx.userCount() },
            { _ in throw Refused() },
            { tx in try tx.user(localId: "present") == nil ? 0 : 1 },
        ])

        #expect((try? results[0].get()) == 1)
        #expect(throws: Refused.self) { try results[1].get() }
        #expect((try? results[2].get()) == 1)
        #expect(store.groupRead.transactionsBegun.load(ordering: .relaxed) - before == 2)
        try await store.close()
    }

    @Test("a read asked for after a write was acknowledged sees it, under concurrent reads and writes")
    func readsSeeAcknowledgedWrites() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteUserStore(path: directory.file("gate.sqlite"))
        // Many clients each write then read their own row at once, so reads queue behind each other in batches
        // whose transactions begin while other writes commit.
        let missing = await withTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    do {
                        try await store.write { tx in try tx.insertUser(Fixture.user("client-\(index)")) }
                        let found = try await store.read { tx in try tx.user(localId: "client-\(index)") != nil }
                        return found ? 0 : 1
                    } catch {
                        return 1
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(missing == 0)
        #expect(try await store.read { try $0.userCount() } == 200)
        try await store.close()
    }
}
