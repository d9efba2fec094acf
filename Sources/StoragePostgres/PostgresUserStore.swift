import AuthCore
import Foundation
import Storage
import Synchronization

/// The `UserStore` for several gateway instances sharing one PostgreSQL database.
///
/// Transactions run concurrently at READ COMMITTED (reads: REPEATABLE READ, READ ONLY, one snapshot), each
/// on a pooled connection and a worker thread of its own, so the blocking libpq calls never run on a
/// cooperative thread or an event loop. A write transaction locks what it reads, so its read-modify-writes
/// stay whole (`PostgresTransaction+Locks`). Unique constraints decide races, as in every backend. A transaction
/// that meets a lost connection before COMMIT (a server restart) or a deadlock runs again on a fresh
/// connection, with backoff, within `PostgresOptions.retryBudgetMilliseconds`; a body may therefore run more
/// than once and must have no effects outside the transaction.
public final class PostgresUserStore: UserStore {
    /// The connection URL with any password replaced by `***`, for logs and messages.
    public let redactedURL: String
    private let connections: ConnectionPool
    private let workers: WorkerPool
    private let retry: RetryPolicy
    private let gate = UseGate()
    private let connectionRetries = Atomic<Int>(0)
    private let conflictRetries = Atomic<Int>(0)

    /// Connects, checks the server is reachable and applies pending migrations. Blocks the calling thread,
    /// so do it at start-up. Throws `StoreError.unavailable` (with the redacted URL) when the server cannot
    /// be reached, `.schemaTooNew` when a newer build migrated the database.
    public init(options: PostgresOptions) throws {
        redactedURL = ConnectionURL.redacted(options.url)
        connections = ConnectionPool(options: options)
        retry = RetryPolicy(budgetMilliseconds: options.retryBudgetMilliseconds)
        do {
            try connections.withConnection { connection in try PostgresMigrator.migrate(connection) }
        } catch let failure as PostgresFailure {
            throw StoreError.unavailable("cannot connect to PostgreSQL at \(redactedURL): \(failure.message)")
        }
        workers = WorkerPool(name: "postgres", threadCount: max(1, options.poolSize))
    }

    /// A store dropped without `close()` still lets its threads exit.
    deinit { workers.stop() }

    /// Connections opened so far, including replacements for lost ones.
    public var connectionsOpened: Int { connections.connectionsOpened }

    /// Attempts run again so far: after a lost connection, and after a deadlock or serialization failure.
    public var retries: (afterLostConnection: Int, afterConflict: Int) {
        (connectionRetries.load(ordering: .relaxed), conflictRetries.load(ordering: .relaxed))
    }

    public func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) async throws -> T {
        try gate.enter()
        defer { gate.leave() }
        let submitted = ContinuousClock.now
        return try await workers.run { try self.transaction(.write, body, submitted: submitted) }
    }

    public func read<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) async throws -> T {
        try gate.enter()
        defer { gate.leave() }
        let submitted = ContinuousClock.now
        return try await workers.run { try self.transaction(.read, body, submitted: submitted) }
    }

    /// The migration versions recorded in the database, in order.
    package func schemaVersions() async throws -> [Int] {
        try await read { tx in
            try (tx as! PostgresTransaction).run("SELECT version FROM schema_migrations ORDER BY version")
                .rows { row throws(StoreError) in Int(try row.integer(0)) }
        }
    }

    public func close() async throws {
        guard await gate.closeAndDrain() else { return }
        workers.stop()
        connections.closeIdle()
    }

    // MARK: Running transactions

    /// Why one attempt ended without a result although another may succeed.
    private struct RetryableAttempt: Error {
        let failure: PostgresFailure
    }

    /// Runs attempts until one succeeds, one fails for good, or the retry policy gives up. The retry budget
    /// counts from `submitted`: a transaction that queued behind others while the server was away has less
    /// time left, so callers are answered within the budget rather than twice it.
    private func transaction<T>(
        _ kind: PostgresTransaction.Kind, _ body: (any StoreTransaction) throws -> T, submitted started: ContinuousClock.Instant
    ) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try connections.withConnection { connection in try runAttempt(kind, body, on: connection) }
            } catch let error as PostgresFailure {
                try wait(after: error, attempt: attempt, since: started)
            } catch let error as RetryableAttempt {
                try wait(after: error.failure, attempt: attempt, since: started)
            }
        }
    }

    /// Sleeps before the next attempt, or throws the failure as a `StoreError` when the policy gives up.
    private func wait(after failure: PostgresFailure, attempt: Int, since started: ContinuousClock.Instant) throws {
        if PostgresFailures.isConnectionFailure(failure) { connections.closeIdle() }
        let elapsed = (ContinuousClock.now - started).components
        let elapsedMilliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
        guard let delay = retry.delay(after: failure, attempt: attempt, elapsedMilliseconds: elapsedMilliseconds) else {
            if PostgresFailures.isConnectionFailure(failure) {
                throw StoreError.unavailable("PostgreSQL at \(redactedURL) is unreachable: \(failure.message)")
            }
            throw PostgresFailures.storeError(for: failure)
        }
        if PostgresFailures.isConnectionFailure(failure) {
            connectionRetries.add(1, ordering: .relaxed)
        } else {
            conflictRetries.add(1, ordering: .relaxed)
        }
        if delay > 0 { Thread.sleep(forTimeInterval: Double(delay) / 1000) }
    }

    /// One attempt: runs the body, then commits; rolls back when the body throws or the attempt was voided.
    private func runAttempt<T>(
        _ kind: PostgresTransaction.Kind, _ body: (any StoreTransaction) throws -> T, on connection: PGConnection
    ) throws -> T {
        let transaction = PostgresTransaction(connection: connection, kind: kind)
        let result: T
        do {
            result = try body(transaction)
        } catch {
            transaction.rollback()
            // A body that failed because the attempt was voided (say, the connection dropped mid-way) fails
            // with whatever it made of that; the attempt itself may still be worth repeating.
            if let voided = transaction.voided, PostgresFailures.isRetryable(voided) { throw RetryableAttempt(failure: voided) }
            throw error
        }
        if let voided = transaction.voided {
            transaction.rollback()
            if PostgresFailures.isRetryable(voided) { throw RetryableAttempt(failure: voided) }
            throw PostgresFailures.storeError(for: voided)
        }
        do {
            try transaction.commit()
        } catch {
            // A lost connection after COMMIT was sent leaves the outcome unknown: never repeat the body then.
            // A serialization failure or deadlock reported by COMMIT means the server rolled back: repeat.
            if let voided = transaction.voided, PostgresFailures.isRetryable(voided),
               !PostgresFailures.isConnectionFailure(voided) {
                throw RetryableAttempt(failure: voided)
            }
            if let voided = transaction.voided, PostgresFailures.isConnectionFailure(voided) {
                throw StoreError.unavailable("the connection to PostgreSQL was lost during COMMIT; the transaction may or may not have committed")
            }
            throw error
        }
        return result
    }
}
