import AuthCore
import Storage
import Synchronization

/// Group commit: write transactions that queue up while the writer is busy run one after another inside a
/// single SQLite transaction and are committed together.
///
/// Why: under load every sign-up or refresh is a small write, and a transaction of its own costs BEGIN, COMMIT,
/// a WAL append of every page it touched (the same few pages each time) and a thread wake-up. Together they
/// cost these once per batch. Nothing waits to form a batch: the writer takes whatever queued while the last one
/// ran, so a lone write is committed as soon as the writer is free, as before.
///
/// What callers see is unchanged. The bodies run serially in arrival order, each seeing the ones before it, as
/// separate transactions would. A body that throws is undone alone and gets its own error.
///
/// Savepoints only when a body throws: a batch first runs with none. A savepoint makes SQLite copy every page a
/// body changes into a sub-journal (4 KiB each, in 1 KiB heap chunks, as Debian's SQLite has no lookaside
/// allocator): about 2 µs of the writer's time per sign-up, in every batch, to prepare for a rare failure.
/// When a body other than the first throws, the batch is rolled back and run again with one savepoint per body
/// (`UserStore` allows a body to run more than once); when the first throws, its failure is final and the rest
/// go on without savepoints.
///
/// No result is delivered before the COMMIT that contains it has returned, so an acknowledged write is in the WAL
/// exactly as before (same `synchronous` setting: it survives the process being killed). When the COMMIT fails, or
/// SQLite rolls the whole transaction back by itself (a full disk, an I/O error), every body of the batch that had
/// succeeded gets that failure instead: nothing of it was acknowledged.
final class GroupCommit: Sendable {
    /// The most bodies in one transaction, so one batch cannot hold the writer (and its callers) for long.
    static let maximumBatch = 64

    private let writer: Mutex<Connection>
    private let pool: WorkerPool
    /// One drain job at a time: there is one writer.
    private let queue = Mutex(BatchQueue<QueuedBody>(maximumDrainers: 1))
    /// Batches run again with savepoints after a body threw (for tests and diagnostics).
    let batchesRunAgainWithSavepoints = Atomic<Int>(0)

    init(writer: Connection, pool: WorkerPool) {
        self.writer = Mutex(writer)
        self.pool = pool
    }

    /// Writes queued behind the batch now running (for tests).
    var waitingCount: Int { queue.withLock { $0.count } }

    /// Runs `body` with the writer connection outside any batch (closing the store).
    func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withLock { try body($0) }
    }

    /// Queues `write`; the writer thread is woken only when it is not already draining the queue.
    func enqueue(_ write: QueuedBody) {
        if queue.withLock({ $0.add(write) }) { pool.submit { self.drain() } }
    }

    /// Runs batches until the queue is empty (on the writer pool's thread).
    private func drain() {
        while true {
            let batch = queue.withLock { $0.takeBatch(upTo: Self.maximumBatch) }
            if batch.isEmpty { return }
            writer.withLock { connection in commit(batch, on: connection) }
        }
    }

    private func commit(_ batch: [QueuedBody], on connection: Connection) {
        var pending = batch[...]
        while !pending.isEmpty {
            switch commitWithoutSavepoints(pending, on: connection) {
            case .finished:
                return
            case .firstFailed(let rest):
                pending = rest
            case .laterFailed:
                batchesRunAgainWithSavepoints.add(1, ordering: .relaxed)
                while !pending.isEmpty {
                    pending = commitPrefix(of: pending, on: connection)
                }
                return
            }
        }
    }

    private enum Outcome {
        /// Committed and delivered, or every body failed with the transaction's own failure.
        case finished
        /// The first body threw and got its error; nothing else ran. The rest are still to run.
        case firstFailed(rest: ArraySlice<QueuedBody>)
        /// A later body threw: everything was rolled back and nothing delivered.
        case laterFailed
    }

    /// Runs every body in one transaction with no savepoint, then commits; see the type's comment.
    private func commitWithoutSavepoints(_ writes: ArraySlice<QueuedBody>, on connection: Connection) -> Outcome {
        guard begin(for: writes, on: connection) else { return .finished }
        var succeeded: [Succeeded] = []
        succeeded.reserveCapacity(writes.count)
        for index in writes.indices {
            do {
                succeeded.append((writes[index], try writes[index].run(SQLiteTransaction(connection: connection))))
            } catch {
                connection.rollBack()
                guard index == writes.startIndex else { return .laterFailed }
                writes[index].fail(error)
                return .firstFailed(rest: writes[(index + 1)...])
            }
        }
        commitAndDeliver(succeeded, on: connection)
        return .finished
    }

    /// Runs bodies from the front of `writes` in one transaction, each in its own savepoint, and commits it.
    /// Returns the bodies it did not reach: those after one whose failure took the whole transaction with it, to
    /// run in a fresh one.
    private func commitPrefix(of writes: ArraySlice<QueuedBody>, on connection: Connection) -> ArraySlice<QueuedBody> {
        guard begin(for: writes, on: connection) else { return [] }
        var succeeded: [Succeeded] = []
        var index = writes.startIndex
        while index < writes.endIndex {
            let write = writes[index]
            index += 1
            do {
                try connection.execute("SAVEPOINT group_commit_item")
                let deliver = try write.run(SQLiteTransaction(connection: connection))
                try connection.execute("RELEASE group_commit_item")
                succeeded.append((write, deliver))
            } catch {
                write.fail(error)
                guard undo(toSavepointOn: connection) else {
                    // The transaction is gone, and with it every earlier body's changes: none was acknowledged.
                    connection.rollBack()
                    for done in succeeded { done.write.fail(Self.lostTransaction) }
                    return writes[index...]
                }
            }
        }
        commitAndDeliver(succeeded, on: connection)
        return []
    }

    /// A body that ran, and how to deliver its result once its transaction has committed.
    private typealias Succeeded = (write: QueuedBody, deliver: @Sendable () -> Void)

    /// `BEGIN IMMEDIATE`. When it fails, every write gets the failure, and the answer is false.
    private func begin(for writes: ArraySlice<QueuedBody>, on connection: Connection) -> Bool {
        do {
            try connection.execute("BEGIN IMMEDIATE")
            return true
        } catch {
            for write in writes { write.fail(error) }
            return false
        }
    }

    /// `COMMIT`, then each result is delivered. When the COMMIT fails, the transaction is rolled back and each of
    /// `succeeded` gets that failure instead.
    private func commitAndDeliver(_ succeeded: [Succeeded], on connection: Connection) {
        do {
            try connection.execute("COMMIT")
        } catch {
            connection.rollBack()
            for done in succeeded { done.write.fail(error) }
            return
        }
        for done in succeeded { done.deliver() }
    }

    /// Undoes the last body's changes, keeping the transaction. False when there is no transaction left to keep.
    private func undo(toSavepointOn connection: Connection) -> Bool {
        guard connection.isInTransaction else { return false }
        do {
            try connection.execute("ROLLBACK TO group_commit_item")
            try connection.execute("RELEASE group_commit_item")
            return true
        } catch {
            return false
        }
    }

    static let lostTransaction = StoreError.unavailable("SQLite rolled back a group of write transactions")
}
