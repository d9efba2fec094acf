/// Where users, identities, tokens and keys live. Backends: `InMemoryUserStore` (tests, emulator),
/// `SQLiteUserStore` (the embedded default) and PostgreSQL (several gateway instances sharing one database).
///
/// The contract is written so that all backends behave the same:
/// - Every read and write happens inside a transaction, on a blocking worker thread, never on the
///   caller's cooperative thread.
/// - Unique constraints, not earlier reads, decide races. A backend may run write transactions one at a
///   time (memory, SQLite) or concurrently (PostgreSQL, READ COMMITTED); callers must not rely on either.
/// - A transaction method that throws `uniqueViolation` or `notFound` has had no effect, and the transaction
///   stays usable: the body may catch it and carry on, or rethrow to roll everything back. Other errors
///   (`unavailable`) may void the transaction: later calls throw too, and nothing is committed.
/// - A backend may run a body more than once: PostgreSQL repeats a transaction the server aborted (deadlock)
///   or whose connection dropped before COMMIT. Bodies must have no effects outside the transaction.
/// - Integers are `Int64` milliseconds or seconds as each record documents, byte strings are `[UInt8]`,
///   text is compared exactly (UTF-8 bytes) unless a method says otherwise, and list order is always stated.
public protocol UserStore: Sendable {
    /// Runs `body` in one transaction on a blocking worker thread (never on the caller's cooperative
    /// thread); commits when it returns, rolls back when it throws (and rethrows).
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T

    /// Runs `body` on a read-only snapshot (may run concurrently with other reads and with a write). Write
    /// methods called inside throw `StoreError.readOnly`.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T

    /// Waits for running transactions, then leaves the data complete where it lives (SQLite: folds the WAL
    /// into the database file) and releases threads and files. Later calls throw `StoreError.unavailable`.
    /// Calling it twice is harmless.
    ///
    /// Throws when that last step failed: threads and files are released anyway and nothing committed is
    /// lost, but the operator must know (for SQLite, the `-wal` file then still holds committed transactions
    /// and must stay next to the database).
    func close() async throws
}
