import AuthCore
import Synchronization

/// The reference `UserStore`: everything in memory, for tests and the emulator.
///
/// Writes run one at a time under a lock; each works on a copy of the state and commits by swapping it in,
/// so a throwing body leaves nothing behind. Reads run on the committed state as it was when they started.
/// It enforces exactly the constraints of the SQL backends. Each write copies the tables it touches, and
/// paging sorts all ids, which is fine for test and emulator sizes, not for production data.
public final class InMemoryUserStore: UserStore {
    private let committed = Mutex(MemoryState())
    /// Held for the whole of a write transaction: writers are serialised, readers are not blocked.
    private let writerLock = Mutex(())
    private let pool: WorkerPool
    private let gate = UseGate()

    /// Starts an empty store with its own two worker threads.
    public init() {
        pool = WorkerPool(name: "memory-store", threadCount: 2)
    }

    /// A store dropped without `close()` still lets its threads exit.
    deinit { pool.stop() }

    public func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) async throws -> T {
        try gate.enter()
        defer { gate.leave() }
        return try await pool.run { try self.commitOrDiscard(body) }
    }

    public func read<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) async throws -> T {
        try gate.enter()
        defer { gate.leave() }
        return try await pool.run {
            try body(MemoryTransaction(state: self.committed.withLock { $0 }, writable: false))
        }
    }

    /// Runs a write body on a copy of the committed state and swaps the copy in if the body returns.
    private func commitOrDiscard<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try writerLock.withLock { _ in
            let transaction = MemoryTransaction(state: committed.withLock { $0 }, writable: true)
            let result = try body(transaction)
            let changed = transaction.state
            committed.withLock { $0 = changed }
            return result
        }
    }

    public func close() async throws {
        guard await gate.closeAndDrain() else { return }
        pool.stop()
        committed.withLock { $0 = MemoryState() }
    }
}
