import AuthCore
import CSQLite
import Storage
import Synchronization

/// Copies the WAL back into the database file on a thread of its own, so that commits wait for little of it.
///
/// Why: by default the connection whose COMMIT takes the WAL past 1,000 pages runs the whole checkpoint itself,
/// inside that COMMIT. That is the store's only writer, and a checkpoint copies every page and `fsync`s the WAL
/// and the database file: on this project's benchmark disk about 2.3 ms per MiB synced, so tens of milliseconds
/// during which every queued sign-up and refresh waits (a p99 of 29 ms at half load on disk against 7.6 ms on
/// tmpfs, where `fsync` is free). Here a separate connection runs PASSIVE checkpoints, which take no lock the
/// writer or the readers need: the writer keeps appending while the frames already committed are copied and
/// synced.
///
/// The writer still finishes each round itself, briefly: SQLite starts the WAL over only at a write that finds
/// every frame copied, and under steady load frames arrive while the background pass runs, so it never catches
/// up alone (the WAL grew to 97 MiB in the test that found this). So after a background round, the writer's
/// next commit past the threshold copies the few frames appended meanwhile (PASSIVE, in its WAL hook, as SQLite's
/// own automatic checkpoint does) and syncs them, and the WAL is reused from there. If background passes
/// cannot run at all, the writer checkpoints by itself at `Limits.hardLimitPages`, so the WAL stays bounded.
///
/// A round leaves the writer as little as it can (`Round`). A pass that did not catch up with the writer does not
/// sync the database file (SQLite syncs it only when a pass copies the last frame), so the writer's finishing
/// checkpoint used to sync every page the background pass had copied, and the WAL frames appended since that
/// pass began: 1 to 13 ms (median 5), twice a second at half load, with every write queued behind the writer
/// waiting. Now the checkpoint thread syncs both files after each pass and passes again while the
/// WAL grew by more than `Round.smallGrowthFrames` during the last one; the writer's finish copies and syncs the
/// frames of about one short pass.
///
/// Durability does not change: a COMMIT is acknowledged exactly when it was before (in the WAL, `synchronous`
/// unchanged), checkpoints sync as SQLite's own do, and a checkpoint interrupted by a crash is redone by the next.
final class WALCheckpointer: Sendable {
    /// When checkpoints happen, in WAL pages (4 KiB each).
    struct Limits: Sendable, Equatable {
        /// The WAL size that asks for a background pass.
        var thresholdPages: Int32
        /// The WAL size at which the writer checkpoints whether or not a background pass has run.
        var hardLimitPages: Int32

        /// 8,000 pages (32 MiB) rather than SQLite's 1,000: a sign-up dirties a few pages that the next ones
        /// dirty again (the ends of the append-only indexes, the page header), and a checkpoint copies each
        /// page once however often the WAL holds it, so a longer WAL between passes copies and syncs less. Measured
        /// on sign-ups at saturation: the checkpoint thread's CPU per sign-up halved (21 to 11 µs), the writer's
        /// fell by about 5 %. The WAL file keeps its largest size between passes (32 MiB here, up to 128 MiB if
        /// passes are held up), and recovery after a crash reads at most that much.
        static let standard = Limits(thresholdPages: 8_000, hardLimitPages: 32_000)
    }

    /// What the writer does after a commit that left `walPages` in the WAL.
    enum AfterCommit: Equatable {
        case nothing
        /// Ask the checkpoint thread for a pass.
        case requestPass
        /// Checkpoint now on the writer: a pass copied nearly everything, or the WAL reached the hard limit.
        case finishOnWriter
    }

    /// How the checkpoint thread decides that a round has left the writer little to do.
    enum Round {
        /// Passes per round at most; under a write rate the disk cannot follow, the writer's finish copies the rest.
        static let maximumPasses = 4
        /// WAL growth during a pass (in frames, 4 KiB each) small enough to leave to the writer's finish.
        static let smallGrowthFrames: Int32 = 128

        /// Whether to pass again after a pass that found `walFrames` in the WAL, the one before having found
        /// `previousWALFrames` (nil after the first pass). Pure, so every branch is tested without a database.
        static func passAgain(walFrames: Int32, previousWALFrames: Int32?, passesSoFar: Int) -> Bool {
            guard passesSoFar < maximumPasses else { return false }
            // After one pass it is not known how much arrived while it ran: pass once more to find out.
            guard let previousWALFrames else { return true }
            // Fewer frames than before: the writer started the WAL over, so the last pass had caught up.
            return walFrames - previousWALFrames > smallGrowthFrames
        }
    }

    /// Pure, so every branch is tested without a database.
    static func afterCommit(walPages: Int32, passFinishedSinceWriterCheckpoint: Bool, limits: Limits) -> AfterCommit {
        guard walPages >= limits.thresholdPages else { return .nothing }
        if passFinishedSinceWriterCheckpoint || walPages >= limits.hardLimitPages { return .finishOnWriter }
        return .requestPass
    }

    private struct State {
        var requested = false
        var running = false
        var stopped = false
        var completed = 0
        var passes = 0
        var lastFailure: StoreError?
        var writerCheckpoints = 0
    }

    let limits: Limits
    private let connection: Mutex<Connection>
    private let pool: WorkerPool
    private let state = Mutex(State())
    /// A background pass finished since the writer last checkpointed or the WAL started over (read by the writer
    /// after every commit, hence an atomic rather than the lock).
    private let passFinished = Atomic<Bool>(false)
    /// Runs just before each checkpoint (on the checkpoint thread); tests use it to hold a checkpoint open.
    private let willCheckpoint: @Sendable () -> Void

    init(path: String, limits: Limits = .standard,
         willCheckpoint: @escaping @Sendable () -> Void = {}) throws(StoreError) {
        self.limits = limits
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.executeScript("PRAGMA synchronous=NORMAL;")
        self.connection = Mutex(connection)
        self.pool = WorkerPool(name: "sqlite-checkpoint", threadCount: 1)
        self.willCheckpoint = willCheckpoint
    }

    /// Replaces `writer`'s automatic checkpoint with `afterCommit`, applied after every commit. The writer must not
    /// outlive this object with the hook installed: `detach(from:)` removes it.
    func attach(to writer: Connection) throws(StoreError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        try writer.withHandle { handle in
            _ = sqlite3_wal_hook(handle, { context, database, _, pages in
                guard let context else { return SQLITE_OK }
                Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
                    .writerCommitted(walPages: pages, database: database)
                return SQLITE_OK
            }, context)
        }
    }

    /// Removes the hook (the writer goes back to checkpointing by itself; it is about to close).
    func detach(from writer: Connection) {
        try? writer.withHandle { handle in _ = sqlite3_wal_hook(handle, nil, nil) }
    }

    /// On the writer's thread, inside its COMMIT (the WAL hook): applies `afterCommit`.
    private func writerCommitted(walPages: Int32, database: OpaquePointer?) {
        let finished = passFinished.load(ordering: .acquiring)
        switch Self.afterCommit(walPages: walPages, passFinishedSinceWriterCheckpoint: finished, limits: limits) {
        case .nothing:
            // Below the threshold after a pass: the WAL started over, and that pass is no longer news.
            if finished { passFinished.store(false, ordering: .releasing) }
        case .requestPass:
            request()
        case .finishOnWriter:
            // A failure (a reader's snapshot in the way) is retried at the next commit past the threshold.
            let code = sqlite3_wal_checkpoint_v2(database, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            passFinished.store(false, ordering: .releasing)
            if code == SQLITE_OK { state.withLock { $0.writerCheckpoints += 1 } }
        }
    }

    /// Asks for a checkpoint; returns at once. Requests that arrive while one runs are served by one more run.
    func request() {
        let starts = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.requested = true
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if starts { pool.submit { self.runRequested() } }
    }

    /// What the checkpoints have done so far (for tests).
    struct Progress {
        /// Background rounds finished.
        var completed: Int
        /// Passes made by those rounds (and by one running now).
        var passes: Int
        /// Checkpoints the writer ran itself, to finish a round or at the hard limit.
        var writerCheckpoints: Int
        /// The last error a background round met.
        var lastFailure: StoreError?
        /// A round is running or about to.
        var isRunning: Bool
    }

    var progress: Progress {
        state.withLock {
            Progress(completed: $0.completed, passes: $0.passes, writerCheckpoints: $0.writerCheckpoints,
                     lastFailure: $0.lastFailure, isRunning: $0.running)
        }
    }

    /// Waits for a running checkpoint, refuses new ones and closes the connection.
    func stop() async {
        state.withLock { $0.stopped = true }
        _ = try? await pool.run { self.connection.withLock { $0.close() } }
        pool.stop()
    }

    /// For a store dropped without `close()`: refuses new checkpoints and lets the thread exit after the current
    /// one; the connection closes when this object goes.
    func abandon() {
        state.withLock { $0.stopped = true }
        pool.stop()
    }

    private func runRequested() {
        while true {
            let proceed = state.withLock { state -> Bool in
                guard state.requested, !state.stopped else {
                    state.running = false
                    return false
                }
                state.requested = false
                return true
            }
            guard proceed else { return }
            // Busy: the writer is finishing a round itself, which is what this round was for.
            let outcome = connection.withLock { connection -> Result<Bool, StoreError> in
                do throws(StoreError) {
                    return .success(try runRound(on: connection))
                } catch {
                    return .failure(error)
                }
            }
            if case .success(true) = outcome { passFinished.store(true, ordering: .releasing) }
            state.withLock { state in
                switch outcome {
                case .success(true):
                    state.completed += 1
                    // Commits that asked for a pass while this round ran are served by it: the writer finishes
                    // next, with no new round competing for the WAL. (Each commit past the threshold asks again
                    // until a round has finished, so clearing a request never loses one.)
                    state.requested = false
                case .success(false): break
                case .failure(let error): state.lastFailure = error
                }
            }
        }
    }

    /// Passes, each followed by a sync of both files, until `Round.passAgain` says the writer is left little.
    /// False when another connection's checkpoint was running (the writer finishing a round).
    private func runRound(on connection: Connection) throws(StoreError) -> Bool {
        var previousWALFrames: Int32?
        var passes = 0
        while true {
            willCheckpoint()
            guard let walFrames = try connection.checkpointPassively() else { return passes > 0 }
            passes += 1
            state.withLock { $0.passes += 1 }
            try connection.syncDatabaseAndWAL()
            let again = Round.passAgain(walFrames: walFrames, previousWALFrames: previousWALFrames, passesSoFar: passes)
            guard again else { return true }
            previousWALFrames = walFrames
        }
    }
}
