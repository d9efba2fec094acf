import AuthCore
import Storage
import Synchronization

/// The embedded `UserStore`: one SQLite file in WAL mode.
///
/// One writer connection runs write transactions one at a time under `BEGIN IMMEDIATE` (so a write never
/// fails half-way for lack of the write lock), those that queued up together committed as one group (see
/// `GroupCommit`); a few read-only connections serve snapshots concurrently with it, the reads that queued up
/// together sharing one read transaction (see `GroupRead`). Every SQLite call after opening runs on a
/// `WorkerPool`, never on the caller's cooperative thread.
public final class SQLiteUserStore: UserStore {
    /// The database file this store opened.
    public let path: String
    let readers: ReaderConnections
    private let writerPool: WorkerPool
    let groupCommit: GroupCommit
    private let checkpointer: WALCheckpointer
    let readerPool: WorkerPool
    let groupRead: GroupRead
    let gate = UseGate()

    /// Opens (creating if needed) the database at `path` and applies pending migrations. The directory
    /// must exist. Opening blocks the calling thread, so do it at start-up.
    ///
    /// Throws `StoreError.schemaTooNew` when a newer build has migrated the file, `.corrupt` when it is
    /// not a Gatehouse database, `.unavailable` when it cannot be opened. `busyTimeoutMilliseconds` is how
    /// long the writer waits for locks held by other processes (a backup, another instance) before failing.
    public convenience init(path: String, readerCount: Int = 2, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        try self.init(path: path, readerCount: readerCount, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                      willCheckpoint: {})
    }

    /// `willCheckpoint` runs on the checkpoint thread before each background checkpoint (tests hold one open);
    /// tests also checkpoint at smaller WAL sizes than the standard ones.
    init(path: String, readerCount: Int = 2, busyTimeoutMilliseconds: Int32 = 5_000,
         checkpointLimits: WALCheckpointer.Limits = .standard,
         willCheckpoint: @escaping @Sendable () -> Void) throws {
        let writer = try Connection(path: path, mode: .readWrite, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try Self.configureWriter(writer)
        try Migrator.migrate(writer)
        self.path = path
        self.readers = try ReaderConnections(path: path, count: readerCount)
        self.checkpointer = try WALCheckpointer(path: path, limits: checkpointLimits, willCheckpoint: willCheckpoint)
        try checkpointer.attach(to: writer)
        self.writerPool = WorkerPool(name: "sqlite-writer", threadCount: 1)
        self.groupCommit = GroupCommit(writer: writer, pool: writerPool)
        self.readerPool = WorkerPool(name: "sqlite-reader", threadCount: max(1, readerCount))
        self.groupRead = GroupRead(connections: readers, pool: readerPool, drainers: max(1, readerCount))
    }

    /// What the WAL checkpoints have done so far (tests).
    var checkpointProgress: WALCheckpointer.Progress { checkpointer.progress }

    /// A store dropped without `close()` still lets its threads exit; the connections close with it.
    deinit {
        try? groupCommit.withWriter { checkpointer.detach(from: $0) }
        checkpointer.abandon()
        writerPool.stop()
        readerPool.stop()
    }

    private static func configureWriter(_ connection: Connection) throws {
        let mode = try connection.queryFirst("PRAGMA journal_mode=WAL") { row throws(StoreError) in
            try row.text(0)
        }
        guard mode?.lowercased() == "wal" else {
            throw StoreError.unavailable("SQLite refused WAL mode (journal_mode is \(mode ?? "unknown"))")
        }
        try connection.executeScript("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
    }

    public func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) async throws -> T {
        try gate.enter()
        defer { gate.leave() }
        return try await resultOfBatched(body, queuedBy: groupCommit.enqueue)
    }

    public func read<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) async throws -> T {
        try gate.enter()
        defer { gate.leave() }
        return try await resultOfBatched(body, queuedBy: groupRead.enqueue)
    }

    /// Queues `body` with `enqueue` and suspends the caller until the batch that ran it delivers its result.
    private func resultOfBatched<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T, queuedBy enqueue: (QueuedBody) -> Void
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            enqueue(QueuedBody(
                run: { transaction in
                    let value = try body(transaction)
                    return { continuation.resume(returning: value) }
                },
                fail: { continuation.resume(throwing: $0) }))
        }
    }

    /// Closes the readers first, then checkpoints the WAL into the database file and closes the writer.
    ///
    /// The order matters: SQLite folds the WAL back only when the last connection closes, and a read-only
    /// connection cannot do it. Closing the writer before the readers left every committed transaction in
    /// `-wal` and a main file without tables, so a copy of `gatehouse.sqlite` alone was empty. The explicit
    /// TRUNCATE checkpoint also reports failure (e.g. another process holding a read transaction), which
    /// the close on its own would not.
    public func close() async throws {
        guard await gate.closeAndDrain() else { return }
        defer {
            writerPool.stop()
            readerPool.stop()
        }
        try? await readerPool.run { self.readers.closeAll() }
        await checkpointer.stop()
        try await writerPool.run {
            try self.groupCommit.withWriter { connection in
                defer { connection.close() }
                self.checkpointer.detach(from: connection)
                try connection.checkpointAndTruncateWAL()
            }
        }
    }
}
