import AuthCore
import Storage
import Synchronization

/// Runs the reads that queued up together in one read transaction on one reader connection.
///
/// Why: under load the readers fall behind (at 64 connections of `accounts:lookup` a reader found about 15
/// reads waiting each time it took one), and every read paid for its own transaction: `BEGIN`, the shared lock
/// on the database file and the WAL read mark (each an `fcntl` system call, taken and dropped again), `COMMIT`,
/// and a wake-up of a reader thread. A batch pays these once.
///
/// Still every read sees every write acknowledged before it was queued: a batch is taken from the queue before
/// its transaction begins, and SQLite takes the snapshot at the transaction's first read, so the snapshot is
/// never older than any read in it. Reads queued after the batch was taken wait for the next one.
///
/// Results are delivered after the transaction ends and the connection is back with the others, so a caller
/// who resumes (and perhaps closes the store) never finds a connection still lent out. A read that throws fails
/// alone: the transaction is ended and the rest of the batch runs in a new one.
final class GroupRead: Sendable {
    /// The most reads in one transaction. A batch delays its results by the time all its reads take (a few
    /// microseconds each for the point reads that make up most of them), so it stays short; the other reader
    /// takes the next batch meanwhile. A slow read (an admin page of 1,000 users, about 8 ms on the benchmark VM)
    /// holds up the few batched with it; with such pages read back to back, lookup's p99 stayed where it was
    /// without batching. 16 measured the same as 8.
    static let maximumBatch = 8

    private let connections: ReaderConnections
    private let pool: WorkerPool
    private let queue: Mutex<BatchQueue<QueuedBody>>
    /// Read transactions begun so far (tests).
    let transactionsBegun = Atomic<Int>(0)

    /// At most `drainers` batches run at once, each on a thread of `pool` and with one of `connections`. With
    /// `drainers` no more than the connections, the pool's threads no more than the connections either, and every
    /// other use of a connection running on `pool` as well (a backup does), a batch always finds one free.
    init(connections: ReaderConnections, pool: WorkerPool, drainers: Int) {
        self.connections = connections
        self.pool = pool
        self.queue = Mutex(BatchQueue(maximumDrainers: drainers))
    }

    /// Reads queued and not yet taken into a batch (tests).
    var waitingCount: Int { queue.withLock { $0.count } }

    func enqueue(_ read: QueuedBody) {
        if queue.withLock({ $0.add(read) }) { pool.submit { self.drain() } }
    }

    private func drain() {
        while true {
            let batch = queue.withLock { $0.takeBatch(upTo: Self.maximumBatch) }[...]
            if batch.isEmpty { return }
            var deliveries: [@Sendable () -> Void] = []
            deliveries.reserveCapacity(batch.count)
            do {
                try connections.withConnection { connection in
                    var pending = batch
                    while !pending.isEmpty {
                        pending = runUntilFailure(pending, on: connection, deliveries: &deliveries)
                    }
                }
            } catch {
                // No connection free, so nothing ran: cannot happen while the pool keeps its contract.
                for read in batch { read.fail(error) }
                continue
            }
            for deliver in deliveries { deliver() }
        }
    }

    /// Runs reads in one transaction until one throws; returns the reads after the failed one, to run in a
    /// new transaction (SQLite may have ended this one with the error).
    private func runUntilFailure(_ reads: ArraySlice<QueuedBody>, on connection: Connection,
                                 deliveries: inout [@Sendable () -> Void]) -> ArraySlice<QueuedBody> {
        do {
            try connection.execute("BEGIN")
            transactionsBegun.add(1, ordering: .relaxed)
        } catch {
            for read in reads { deliveries.append { read.fail(error) } }
            return []
        }
        for index in reads.indices {
            do {
                deliveries.append(try reads[index].run(SQLiteTransaction(connection: connection)))
            } catch {
                let read = reads[index]
                deliveries.append { read.fail(error) }
                connection.rollBack()
                return reads[(index + 1)...]
            }
        }
        // A read-only transaction has nothing to commit; ending it releases the snapshot and the locks.
        connection.rollBack()
        return []
    }
}
