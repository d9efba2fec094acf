import AuthCore
import Dispatch
import Foundation
import Storage
@testable import StorageSQLite
import Synchronization
import Testing

/// The WAL is checkpointed mostly in the background (`WALCheckpointer`): commits do not wait for a pass, and the
/// writer's short finishing checkpoints keep the WAL bounded.
@Suite("SQLite background checkpoints")
struct SQLiteCheckpointTests {
    /// Holds the first checkpoint open until released, and tells when one has started.
    private final class CheckpointGate: Sendable {
        private let started = Atomic<Int>(0)
        private let release = DispatchSemaphore(value: 0)

        var hasStarted: Bool { started.load(ordering: .relaxed) > 0 }

        func checkpointWillStart() {
            if started.add(1, ordering: .relaxed).oldValue == 0 {
                _ = release.wait(timeout: .now() + 30)
            }
        }

        func open() { release.signal() }
    }

    /// A transaction of 20 users with 900-character names: about five pages of WAL per commit.
    private static func writeBatch(_ store: SQLiteUserStore, _ batch: Int) async throws {
        try await store.write { tx in
            for index in 0..<20 {
                var user = Fixture.user("u-\(batch)-\(index)")
                user.displayName = String(repeating: "n", count: 900)
                try tx.insertUser(user)
            }
        }
    }

    private static func walBytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    @Test("commits go on while a background checkpoint pass is held open")
    func writesDoNotWaitForCheckpoints() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let gate = CheckpointGate()
        defer { gate.open() }
        let store = try SQLiteUserStore(path: directory.file("c.sqlite"), willCheckpoint: gate.checkpointWillStart)
        let committed = Atomic<Int>(0)
        let writes = Task {
            var batch = 0
            while !Task.isCancelled && batch < 3_000 {
                try await Self.writeBatch(store, batch)
                batch += 1
                committed.add(1, ordering: .relaxed)
            }
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while !gate.hasStarted && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(gate.hasStarted, "no checkpoint was asked for after \(committed.load(ordering: .relaxed)) transactions")

        // The pass is held on the checkpoint thread; a writer running it itself would be stuck behind it.
        let atHold = committed.load(ordering: .relaxed)
        while committed.load(ordering: .relaxed) < atHold + 40 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(committed.load(ordering: .relaxed) >= atHold + 40, "commits waited for the held checkpoint")
        gate.open()
        writes.cancel()
        try await writes.value
        #expect(try await store.read { try $0.userCount() } == committed.load(ordering: .relaxed) * 20)
        try await store.close()
    }

    @Test("after a commit: nothing below the threshold, a pass asked for, then finished on the writer (or at the hard limit)")
    func afterCommitDecision() {
        let threshold = WALCheckpointer.thresholdPages
        #expect(WALCheckpointer.afterCommit(walPages: threshold - 1, passFinishedSinceWriterCheckpoint: true) == .nothing)
        #expect(WALCheckpointer.afterCommit(walPages: threshold, passFinishedSinceWriterCheckpoint: false) == .requestPass)
        #expect(WALCheckpointer.afterCommit(walPages: threshold, passFinishedSinceWriterCheckpoint: true) == .finishOnWriter)
        #expect(WALCheckpointer.afterCommit(walPages: WALCheckpointer.hardLimitPages - 1,
                                            passFinishedSinceWriterCheckpoint: false) == .requestPass)
        #expect(WALCheckpointer.afterCommit(walPages: WALCheckpointer.hardLimitPages,
                                            passFinishedSinceWriterCheckpoint: false) == .finishOnWriter)
    }

    @Test("background checkpoints keep the WAL bounded, and everything committed is in the file after close")
    func walStaysBounded() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sqlite")
        let store = try SQLiteUserStore(path: path)
        // About 8,000 pages of WAL appends in all: eight times the checkpoint threshold.
        for batch in 0..<1_600 {
            try await Self.writeBatch(store, batch)
        }
        let progress = store.checkpointProgress
        #expect(progress.completed > 0)
        #expect(progress.writerCheckpoints > 0)
        #expect(progress.lastFailure == nil)
        // Without checkpoints the WAL would hold every page written (over 30 MB); it is reused instead, so it
        // stays within a few thresholds of pages (4 KiB each).
        let walMiB = Double(Self.walBytes(path)) / 1_048_576
        #expect(walMiB < 16, "WAL grew to \(walMiB) MiB")
        try await store.close()

        let reopened = try SQLiteUserStore(path: path)
        #expect(try await reopened.read { try $0.userCount() } == 1_600 * 20)
        try await reopened.close()
    }
}
