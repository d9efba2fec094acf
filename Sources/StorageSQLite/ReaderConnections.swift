import Storage
import Synchronization

/// The read-only connections, lent out one per job. The reader pool has as many threads as there are
/// connections, so a job always finds one free.
final class ReaderConnections: Sendable {
    private let idle: Mutex<[Connection]>

    init(path: String, count: Int) throws(StoreError) {
        var connections: [Connection] = []
        for _ in 0..<max(1, count) {
            connections.append(try Connection(path: path, mode: .readOnly))
        }
        idle = Mutex(connections)
    }

    /// Runs `body` with a connection that no other thread uses meanwhile.
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let connection = idle.withLock({ $0.popLast() }) else {
            throw StoreError.unavailable("no SQLite reader connection is free")
        }
        defer { idle.withLock { $0.append(connection) } }
        return try body(connection)
    }

    /// Closes every connection. Only call when no job is running.
    func closeAll() {
        idle.withLock { connections in
            for connection in connections { connection.close() }
            connections.removeAll()
        }
    }
}
