import CSQLite
import Storage

/// One SQLite connection with its cache of prepared statements.
///
/// SQLite (built thread-safe, opened with `SQLITE_OPEN_NOMUTEX`) allows a connection to move between
/// threads as long as only one uses it at a time; `SQLiteUserStore` guarantees that (the writer sits behind
/// a lock, readers are checked out one per job), which is why the type may be `Sendable`.
final class Connection: @unchecked Sendable {
    enum Mode {
        /// The store's writer: creates the file if missing.
        case readWrite
        /// A snapshot reader; any write fails with `StoreError.readOnly`.
        case readOnly
    }

    private var handle: OpaquePointer?
    let mode: Mode
    private var statements: [String: Statement] = [:]

    init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = 5_000) throws(StoreError) {
        self.mode = mode
        let access = mode == .readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, access | SQLITE_OPEN_NOMUTEX, nil)
        handle = opened
        guard code == SQLITE_OK, opened != nil else {
            let error = failure(code, context: "open \(path)")
            close()
            throw error
        }
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, busyTimeoutMilliseconds)
    }

    deinit { close() }

    /// Finalizes cached statements and closes the handle. Safe to call twice.
    func close() {
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs SQL text that may hold several statements and takes no parameters (DDL, BEGIN, COMMIT, PRAGMA).
    func executeScript(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(try open(), sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code, context: "exec") }
    }

    /// Runs one statement that returns no rows and returns the number of rows it changed.
    @discardableResult
    func execute(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> Int {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() {}
        return Int(sqlite3_changes(try open()))
    }

    /// Runs one statement and decodes every row it returns.
    func query<Record>(
        _ sql: String, _ values: [SQLValue] = [], _ decode: (Row) throws(StoreError) -> Record
    ) throws(StoreError) -> [Record] {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var records: [Record] = []
        while try statement.step() { records.append(try decode(Row(statement))) }
        return records
    }

    /// Runs one statement and decodes its first row, if any.
    func queryFirst<Record>(
        _ sql: String, _ values: [SQLValue] = [], _ decode: (Row) throws(StoreError) -> Record
    ) throws(StoreError) -> Record? {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try statement.step() ? try decode(Row(statement)) : nil
    }

    /// Runs `body` between `begin` and COMMIT; rolls back and rethrows when the body or the commit throws.
    /// BEGIN, COMMIT and ROLLBACK run as cached prepared statements: compiling them anew for every transaction
    /// (`sqlite3_exec`) was a visible share of a one-row read.
    func transaction<T>(begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        let result: T
        do {
            result = try body()
            try execute("COMMIT")
        } catch {
            rollBack()
            throw error
        }
        return result
    }

    /// Ends the open transaction without its changes; nothing to do when SQLite already rolled it back.
    func rollBack() {
        if isInTransaction { _ = try? execute("ROLLBACK") }
    }

    /// Whether a transaction is open. SQLite rolls a transaction back by itself after some failures (a full
    /// disk, an I/O error), which this reveals.
    var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// Copies the whole database into `destination` with the online backup API. One backup step copies
    /// every page inside a single read transaction of this connection, so the copy is a consistent
    /// snapshot even while the writer commits (WAL lets both proceed).
    func backup(into destination: Connection) throws(StoreError) {
        let target = try destination.open()
        guard let backup = sqlite3_backup_init(target, "main", try open(), "main") else {
            throw destination.failure(sqlite3_extended_errcode(target), context: "backup_init")
        }
        var code = sqlite3_backup_step(backup, -1)
        var attempts = 0
        while (code == SQLITE_BUSY || code == SQLITE_LOCKED || code == SQLITE_OK) && attempts < 500 {
            attempts += 1
            sqlite3_sleep(10)
            code = sqlite3_backup_step(backup, -1)
        }
        let finished = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else { throw destination.failure(code, context: "backup_step") }
        guard finished == SQLITE_OK else { throw destination.failure(finished, context: "backup_finish") }
    }

    /// Copies every frame of the WAL into the database file and empties the WAL (`TRUNCATE`), waiting up to
    /// the busy timeout for other connections' transactions. Throws when it could not finish, so the caller
    /// can say that the `-wal` file still holds data.
    func checkpointAndTruncateWAL() throws(StoreError) {
        var logFrames: Int32 = 0
        var checkpointed: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(try open(), nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointed)
        guard code == SQLITE_OK else { throw failure(code, context: "wal_checkpoint(TRUNCATE)") }
    }

    /// Copies what it can of the WAL into the database file without waiting for, or blocking, any other
    /// connection (`PASSIVE`); see `WALCheckpointer`. Returns the frames the WAL held when the pass began, or nil
    /// when another connection's checkpoint is running.
    func checkpointPassively() throws(StoreError) -> Int32? {
        var logFrames: Int32 = 0
        var checkpointed: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(try open(), nil, SQLITE_CHECKPOINT_PASSIVE, &logFrames, &checkpointed)
        if code & 0xff == SQLITE_BUSY { return nil }
        guard code == SQLITE_OK else { throw failure(code, context: "wal_checkpoint(PASSIVE)") }
        return logFrames
    }

    /// Writes this connection's database file and WAL to disk (`fdatasync`, through SQLite's own file objects).
    /// SQLite syncs them itself wherever durability needs it; this only does some of that work earlier, on
    /// the caller's thread (see `WALCheckpointer`).
    func syncDatabaseAndWAL() throws(StoreError) {
        let code = shim_sync_database_and_wal(try open())
        guard code == SQLITE_OK else { throw failure(code, context: "sync") }
    }

    /// Lends the raw handle for a C call that this type does not wrap (registering a hook).
    func withHandle<T>(_ body: (OpaquePointer) throws(StoreError) -> T) throws(StoreError) -> T {
        try body(try open())
    }

    private func prepared(_ sql: String) throws(StoreError) -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try Statement(sql: sql, connection: self, database: try open())
        statements[sql] = statement
        return statement
    }

    private func open() throws(StoreError) -> OpaquePointer {
        guard let handle else { throw .unavailable("the SQLite connection is closed") }
        return handle
    }

    /// Translates a failed SQLite call into the store's error vocabulary. Must be called before the next
    /// call on this connection, which would replace the error message.
    func failure(_ code: Int32, context: String) -> StoreError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        switch code {
        case ResultCode.constraintUnique, ResultCode.constraintPrimaryKey:
            guard let constraint = ConstraintNames.violated(byMessage: message) else {
                // Our schema names every unique constraint; another one means the database is not (or no longer)
                // the schema this code knows: a bug or a foreign database, never a transient outage (no 503).
                return .corrupt("unrecognised unique constraint: \(message)")
            }
            return .uniqueViolation(constraint)
        case ResultCode.constraintForeignKey:
            return .notFound
        default:
            break
        }
        switch code & 0xff {
        case SQLITE_READONLY where mode == .readOnly: return .readOnly
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt("SQLite \(context): \(message)")
        default: return .unavailable("SQLite \(context) failed (\(code)): \(message)")
        }
    }
}

/// Extended result codes that the importer cannot see (they are macro expressions in sqlite3.h).
enum ResultCode {
    static let constraintForeignKey = SQLITE_CONSTRAINT | (3 << 8)
    static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
    static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
}
