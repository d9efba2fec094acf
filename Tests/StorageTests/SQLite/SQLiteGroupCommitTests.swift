import AuthCore
import Foundation
import Storage
@testable import StorageSQLite
import Synchronization
import TestSupport
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

    /// Runs `writes` as one batch, in the order given: a first write holds the writer until all of them have queued
    /// behind it.
    private func runAsOneBatch(_ store: SQLiteUserStore, _ writes: [@Sendable (any StoreTransaction) throws -> Void])
        async -> [Result<Void, any Error>]
    {
        // The semaphore blocks the writer thread only; this task polls, so no cooperative thread ever blocks.
        let holding = BodyRuns()
        let release = DispatchSemaphore(value: 0)
        let held = Task { try? await store.write { _ in
            holding.increment()
            release.wait()
        } }
        while holding.value == 0 { try? await Task.sleep(for: .milliseconds(1)) }
        return await withTaskGroup(of: (Int, Result<Void, any Error>).self) { group in
            for (index, body) in writes.enumerated() {
                group.addTask {
                    do {
                        try await store.write(body)
                        return (index, .success(()))
                    } catch {
                        return (index, .failure(error))
                    }
                }
                // One at a time, so the batch holds the writes in the order given.
                while store.groupCommit.waitingCount <= index { try? await Task.sleep(for: .milliseconds(1)) }
            }
            release.signal()
            _ = await held.value
            var results = [Result<Void, any Error>?](repeating: nil, count: writes.count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    @Test("a batch where no body throws commits without running any body again")
    func cleanBatchRunsOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteUserStore(path: directory.file("gate.sqlite"))
        let runs = BodyRuns()
        let results = await runAsOneBatch(store, (0..<5).map { index in
            { tx in runs.increment(); try tx.insertUser(Fixture.user("clean-\(index)")) }
        })
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        #expect(runs.value == 5)
        #expect(store.groupCommit.batchesRunAgainWithSavepoints.load(ordering: .relaxed) == 0)
        #expect(try await store.read { try $0.userCount() } == 5)
        try await store.close()
    }

    @Test("a body that throws after others ran: the batch runs again with savepoints, and only that body fails")
    func laterFailureRunsBatchAgain() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteUserStore(path: directory.file("gate.sqlite"))
        let runs = BodyRuns()
        let results = await runAsOneBatch(store, [
            { tx in runs.increment(); try tx.insertUser(Fixture.user("first")) },
            { tx in try tx.insertUser(Fixture.user("refused")); throw Refused() },
            { tx in runs.increment(); try tx.insertUser(Fixture.user("third")) },
        ])
        #expect(throws: Refused.self) { try results[1].get() }
        #expect((try? results[0].get()) != nil && (try? results[2].get()) != nil)
        #expect(store.groupCommit.batchesRunAgainWithSavepoints.load(ordering: .relaxed) == 1)
        // The first body ran in the rolled-back attempt and again with savepoints; the third only then.
        #expect(runs.value == 3)
        #expect(try await store.read { try $0.user(localId: "refused") } == nil)
        #expect(try await store.read { try $0.userCount() } == 2)
        try await store.close()
    }

    @Test("a first body that throws fails alone and the rest commit without savepoints")
    func firstFailureIsFinal() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteUserStore(path: directory.file("gate.sqlite"))
        let results = await runAsOneBatch(store, [
            { tx in try tx.insertUser(Fixture.user("refused")); throw Refused() },
            { tx in try tx.insertUser(Fixture.user("second")) },
        ])
        #expect(throws: Refused.self) { try results[0].get() }
        #expect((try? results[1].get()) != nil)
        #expect(store.groupCommit.batchesRunAgainWithSavepoints.load(ordering: .relaxed) == 0)
        #expect(try await store.read { try $0.user(localId: "refused") } == nil)
        #expect(try await store.read { try $0.userCount() } == 1)
        try await store.close()
    }
}

/// Counts body executions across the writer thread and the test.
private final class BodyRuns: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
