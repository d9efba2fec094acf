import Foundation
import Storage

/// The read-only connections, lent out one per read.
///
/// A read takes a free connection on the caller's own thread when there is one (`withFreeConnection`), and
/// only otherwise goes to the reader pool, whose threads wait for a connection to come back
/// (`withConnection`). So connections can all be lent out to callers while a pool job waits; before reads ran
/// in place, the pool had one thread per connection and a job always found one free.
final class ReaderConnections: @unchecked Sendable {
    /// Guards `idle` and `isClosed`; signalled when a connection comes back.
    private let returned = NSCondition()
    private var idle: [Connection]
    private var isClosed = false

    init(path: String, count: Int) throws(StoreError) {
        var connections: [Connection] = []
        for _ in 0..<max(1, count) {
            connections.append(try Connection(path: path, mode: .readOnly))
        }
        idle = connections
    }

    /// Runs `body` with a connection no other thread uses meanwhile, or returns nil at once when none is free.
    func withFreeConnection<T>(_ body: (Connection) throws -> T) throws -> T? {
        returned.lock()
        let connection = isClosed ? nil : idle.popLast()
        returned.unlock()
        guard let connection else { return nil }
        defer { giveBack(connection) }
        return try body(connection)
    }

    /// Runs `body` with a connection no other thread uses meanwhile, waiting for one to come back if they are
    /// all lent out. Blocks: call it on a reader-pool thread only.
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        returned.lock()
        while idle.isEmpty && !isClosed { returned.wait() }
        let connection = isClosed ? nil : idle.popLast()
        returned.unlock()
        guard let connection else { throw StoreError.unavailable("the SQLite store is closed") }
        defer { giveBack(connection) }
        return try body(connection)
    }

    private func giveBack(_ connection: Connection) {
        returned.lock()
        idle.append(connection)
        returned.signal()
        returned.unlock()
    }

    /// Closes every connection. Only call when no read is running.
    func closeAll() {
        returned.lock()
        for connection in idle { connection.close() }
        idle.removeAll()
        isClosed = true
        returned.broadcast()
        returned.unlock()
    }
}
