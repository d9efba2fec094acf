import AuthCore
import Storage

/// One transaction of `PostgresUserStore` on the connection that runs it.
///
/// BEGIN is sent with the first statement (same round trip). A write that may break a constraint runs
/// between a savepoint and its release, in the same round trip too: PostgreSQL aborts the whole transaction
/// on any error, and the savepoint is what lets a caught `uniqueViolation` leave the transaction usable, as
/// the `UserStore` contract requires. Any other failure voids the attempt: later statements are not sent,
/// and the store rolls back (and retries, if the failure allows it).
final class PostgresTransaction: StoreTransaction {
    enum Kind {
        case write, read

        var begin: String {
            switch self {
            // READ COMMITTED; read-modify-writes lock what they read (see `PostgresTransaction+Locks`).
            case .write: return "BEGIN"
            // One snapshot for the whole body; READ ONLY makes a stray write fail instead of commit.
            case .read: return "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
            }
        }
    }

    private let connection: PGConnection
    private let kind: Kind
    private(set) var begun = false
    /// The failure that made this attempt unusable, if any.
    private(set) var voided: PostgresFailure?
    /// Users whose row this write transaction has locked (see `PostgresTransaction+Locks`): held until it ends.
    var lockedUsers: Set<String> = []

    init(connection: PGConnection, kind: Kind) {
        self.connection = connection
        self.kind = kind
    }

    // MARK: Running statements

    /// Runs one statement that cannot break a constraint the caller handles (reads, deletes, upserts).
    @discardableResult
    func run(_ sql: String, _ values: [PGValue] = []) throws(StoreError) -> PGResult {
        let outcomes = try send([.statement(sql, values)])
        if let failure = Self.firstFailure(outcomes) { throw void(failure) }
        guard case .done(let result) = outcomes.last else { throw void(.lost("no result")) }
        return result
    }

    /// Runs statements in one round trip and returns their results in order. At READ COMMITTED each statement
    /// reads what was committed when it starts, so a read placed after a lock sees what the lock's holder
    /// committed.
    @discardableResult
    func run(_ statements: [(sql: String, values: [PGValue])]) throws(StoreError) -> [PGResult] {
        let outcomes = try send(statements.map { .statement($0.sql, $0.values) })
        if let failure = Self.firstFailure(outcomes) { throw void(failure) }
        var results: [PGResult] = []
        for outcome in outcomes {
            guard case .done(let result) = outcome else { throw void(.lost("no result")) }
            results.append(result)
        }
        return results
    }

    /// Runs one write that may break a unique or foreign-key constraint, protected by a savepoint: on such a
    /// violation the write is undone alone and the transaction stays usable.
    @discardableResult
    func runGuarded(_ sql: String, _ values: [PGValue]) throws(StoreError) -> PGResult {
        try requireWritable()
        let outcomes = try send([
            .command("SAVEPOINT gatehouse_write"), .statement(sql, values), .command("RELEASE SAVEPOINT gatehouse_write"),
        ])
        guard let failure = Self.firstFailure(outcomes) else {
            guard case .done(let result) = outcomes[outcomes.count - 2] else { throw void(.lost("no result")) }
            return result
        }
        guard PostgresFailures.isCatchable(failure), !failure.connectionLost else { throw void(failure) }
        let undo = connection.pipeline([
            .command("ROLLBACK TO SAVEPOINT gatehouse_write"), .command("RELEASE SAVEPOINT gatehouse_write"),
        ])
        if let undoFailure = Self.firstFailure(undo) { throw void(undoFailure) }
        throw PostgresFailures.storeError(for: failure)
    }

    /// Runs SQL text of several statements without parameters (migrations) inside the transaction.
    func script(_ sql: String) throws(StoreError) {
        _ = try send([])
        do { try connection.executeScript(sql) } catch { throw void(error) }
    }

    var isWritable: Bool { kind == .write }

    func requireWritable() throws(StoreError) {
        guard kind == .write else { throw .readOnly }
    }

    /// Commits what the body did. A failure here voids the attempt like any other, with one difference
    /// the store must respect: once COMMIT was sent, a lost connection leaves the outcome unknown.
    func commit() throws(StoreError) {
        if let voided { throw PostgresFailures.storeError(for: voided) }
        guard begun else { return }
        let outcome = connection.pipeline([.command("COMMIT")])
        if let failure = Self.firstFailure(outcome) { throw void(failure) }
        // COMMIT of a transaction the server had already aborted answers ROLLBACK, without an error.
        guard case .done(let result) = outcome[0], result.commandTag == "COMMIT" else {
            throw void(PostgresFailure(sqlState: nil, message: "the server rolled the transaction back"))
        }
    }

    /// Ends the transaction without committing; a connection that cannot say ROLLBACK is closed by the
    /// pool, which ends the transaction on the server too.
    func rollback() {
        guard begun, connection.isOpen else { return }
        _ = connection.pipeline([.command("ROLLBACK")])
    }

    // MARK: Private

    /// Sends `steps`, prefixed with BEGIN when the transaction has not started yet.
    private func send(_ steps: [PGConnection.Step]) throws(StoreError) -> [PGConnection.Outcome] {
        if let voided { throw PostgresFailures.storeError(for: voided) }
        guard !begun else { return steps.isEmpty ? [] : connection.pipeline(steps) }
        let outcomes = connection.pipeline([.command(kind.begin)] + steps)
        switch outcomes[0] {
        case .done:
            begun = true
            return Array(outcomes.dropFirst())
        case .failed(let failure):
            throw void(failure)
        case .skipped:
            throw void(.lost("BEGIN was not run"))
        }
    }

    private static func firstFailure(_ outcomes: [PGConnection.Outcome]) -> PostgresFailure? {
        for outcome in outcomes { if case .failed(let failure) = outcome { return failure } }
        return nil
    }

    private func void(_ failure: PostgresFailure) -> StoreError {
        if voided == nil { voided = failure }
        return PostgresFailures.storeError(for: failure)
    }
}
