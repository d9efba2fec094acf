import Synchronization

/// Idle connections, lent out one per job and opened on demand. The store's worker pool has `poolSize`
/// threads, and a job holds at most one connection, so there are never more than `poolSize` connections.
final class ConnectionPool: Sendable {
    private let parameters: [(String, String)]
    private let sessionSetup: String
    private let idle = Mutex<[PGConnection]>([])
    private let opened = Atomic<Int>(0)

    init(options: PostgresOptions) {
        parameters = options.connectionParameters
        sessionSetup = options.sessionSetup
    }

    /// Connections opened so far, replacements after a lost connection included (for tests and logs).
    var connectionsOpened: Int { opened.load(ordering: .relaxed) }

    /// Runs `body` with a connection no other job uses meanwhile. The connection goes back to the pool
    /// only if it is healthy and outside any transaction; otherwise it is closed.
    func withConnection<T>(_ body: (PGConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? open()
        defer {
            if connection.isReusable {
                idle.withLock { $0.append(connection) }
            } else {
                connection.close()
            }
        }
        return try body(connection)
    }

    /// Opens a connection and applies the session settings.
    func open() throws(PostgresFailure) -> PGConnection {
        let connection = try PGConnection(parameters: parameters)
        opened.add(1, ordering: .relaxed)
        try connection.executeScript(sessionSetup)
        return connection
    }

    /// Closes the idle connections. After one connection was lost (a server restart cuts them all), the
    /// others are most likely dead too: dropping them spares each later job a failed first attempt.
    func closeIdle() {
        let connections = idle.withLock { connections in
            defer { connections.removeAll() }
            return connections
        }
        for connection in connections { connection.close() }
    }
}
