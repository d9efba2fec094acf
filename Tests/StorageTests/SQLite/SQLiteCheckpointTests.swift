import AuthCore
import Dispatch
import Foundation
import Storage
@testable import StorageSQLite
import Synchronization
import TestSupport
import Testing

/// The WAL is checkpointed mostly in the background (`WALCheckpointer`): commits do not wait for a pass, and the
/// writer's short finishing checkpoints keep the WAL bounded.
@Suite("SQLite background checkpoints")
struct SQLiteCheckpointTests {
    /// Holds the first checkpoint open until released (or, if nothing releases it, for `hold`), and tells
    /// whether the hold ran out: a writer stuck behind the held pass would only go on once it had.
    private final class CheckpointGate: Sendable {
        static let hold: DispatchTimeInterval = .seconds(300)
        private let started = Atomic<Int>(0)
        private let ranOut = Atomic<Bool>(false)
        private let release = DispatchSemaphore(value: 0)

        var hasStarted: Bool { started.load(ordering: .acquiring) > 0 }
        var holdRanOut: Bool { ranOut.load(ordering: .acquiring) }

        func checkpointWillStart() {
            if started.add(1, ordering: .acquiringAndReleasing).oldValue == 0,
               release.wait(timeout: .now() + Self.hold) == .timedOut {
                ranOut.store(true, ordering: .releasing)
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

    /// Runs `body` with a store whose first checkpoint pass `gate` holds, once batches written until it started
    /// (their number is `body`'s last argument) have asked for it; closes the store afterwards.
    private static func withHeldCheckpoint(
        _ body: (SQLiteUserStore, CheckpointGate, Int) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let gate = CheckpointGate()
        defer { gate.open() }
        let store = try SQLiteUserStore(path: directory.file("c.sqlite"), checkpointLimits: smallLimits,
                                        willCheckpoint: gate.checkpointWillStart)
        // No clock in the test: the whole suite runs in parallel and can stall a task for many seconds.
        var batch = 0
        while !gate.hasStarted && batch < 3_000 {
            try await writeBatch(store, batch)
            batch += 1
        }
        try #require(gate.hasStarted, "no checkpoint was asked for after \(batch) transactions")
        try await body(store, gate, batch)
        try await store.close()
    }

    private static func walBytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    @Test("commits go on while a background checkpoint pass is held open")
    func writesDoNotWaitForCheckpoints() async throws {
        try await Self.withHeldCheckpoint { store, gate, batch in
            // The pass is held on the checkpoint thread. A writer running it itself would have stopped at the
            // commit that asked for it and gone on only once the hold ran out.
            for extra in 0..<40 {
                try await Self.writeBatch(store, batch + extra)
            }
            #expect(!gate.holdRanOut, "commits waited for the held checkpoint")
            gate.open()
            #expect(try await store.read { try $0.userCount() } == (batch + 40) * 20)
        }
    }

    @Test("a round passes again while the WAL grew during its last pass, so the writer's finish has little left")
    func roundCatchesUp() async throws {
        try await Self.withHeldCheckpoint { store, gate, batch in
            // While the first pass is held, the WAL grows by about 300 frames, more than a pass may leave behind.
            for extra in 0..<60 {
                try await Self.writeBatch(store, batch + extra)
            }
            gate.open()
            // Until the checkpoint thread is idle: a bound on the wait, not a timing.
            var waited = 0
            while (store.checkpointProgress.completed == 0 || store.checkpointProgress.isRunning) && waited < 30_000 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            let progress = store.checkpointProgress
            try #require(progress.completed > 0 && !progress.isRunning, "the background round never finished")
            // One pass per round would leave the writer every frame appended while the held pass waited.
            #expect(progress.passes > progress.completed)
            // The commits that asked for a pass while the first one was held were served by that round; a second
            // round would have competed with the writer's finish.
            #expect(progress.completed == 1)
            #expect(progress.lastFailure == nil)
        }
    }

    @Test("passes again after the first pass, and while the WAL grew by more than a few frames, at most four times")
    func passAgainDecision() {
        typealias Round = WALCheckpointer.Round
        let small = Round.smallGrowthFrames
        #expect(Round.passAgain(walFrames: 8_000, previousWALFrames: nil, passesSoFar: 1))
        #expect(Round.passAgain(walFrames: 8_001 + small, previousWALFrames: 8_000, passesSoFar: 2))
        #expect(!Round.passAgain(walFrames: 8_000 + small, previousWALFrames: 8_000, passesSoFar: 2))
        #expect(!Round.passAgain(walFrames: 8_000, previousWALFrames: 8_000, passesSoFar: 2))
        // The writer started the WAL over between the passes: the last one had caught up.
        #expect(!Round.passAgain(walFrames: 40, previousWALFrames: 8_000, passesSoFar: 2))
        #expect(!Round.passAgain(walFrames: 20_000, previousWALFrames: 8_000, passesSoFar: Round.maximumPasses))
    }

    @Test("syncing the files works before and after the connection has opened the WAL")
    func syncBeforeAndAfterWAL() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sqlite")
        let store = try SQLiteUserStore(path: path)
        try await Self.writeBatch(store, 0)
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.syncDatabaseAndWAL()
        _ = try connection.checkpointPassively()
        try connection.syncDatabaseAndWAL()
        connection.close()
        try await store.close()
    }

    /// SQLite's own threshold, so the tests reach several checkpoints with a few thousand pages of writes.
    static let smallLimits = WALCheckpointer.Limits(thresholdPages: 1_000, hardLimitPages: 8_000)

    @Test("after a commit: nothing below the threshold, a pass asked for, then finished on the writer (or at the hard limit)",
          arguments: [smallLimits, WALCheckpointer.Limits.standard])
    func afterCommitDecision(limits: WALCheckpointer.Limits) {
        func decision(_ pages: Int32, passed: Bool) -> WALCheckpointer.AfterCommit {
            WALCheckpointer.afterCommit(walPages: pages, passFinishedSinceWriterCheckpoint: passed, limits: limits)
        }
        #expect(decision(limits.thresholdPages - 1, passed: true) == .nothing)
        #expect(decision(limits.thresholdPages, passed: false) == .requestPass)
        #expect(decision(limits.thresholdPages, passed: true) == .finishOnWriter)
        #expect(decision(limits.hardLimitPages - 1, passed: false) == .requestPass)
        #expect(decision(limits.hardLimitPages, passed: false) == .finishOnWriter)
    }

    @Test("the standard limits leave room for a background pass before the writer must checkpoint by itself")
    func standardLimits() {
        let standard = WALCheckpointer.Limits.standard
        #expect(standard.thresholdPages >= 1_000)
        #expect(standard.hardLimitPages >= 2 * standard.thresholdPages)
    }

    @Test("background checkpoints keep the WAL bounded, and everything committed is in the file after close")
    func walStaysBounded() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sqlite")
        let store = try SQLiteUserStore(path: path, checkpointLimits: Self.smallLimits, willCheckpoint: {})
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
