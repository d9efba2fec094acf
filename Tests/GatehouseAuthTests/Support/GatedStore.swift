import Foundation
@testable import GatehouseAuth

/// An in-memory session store whose saves wait while the test keeps it closed, to hold a write half-way.
final class GatedStore: AuthSessionStore, @unchecked Sendable {
    private let inner = InMemorySessionStore()
    private let gate = Locked<(closed: Bool, waiting: Bool)>((false, false))
    private let opened = DispatchSemaphore(value: 0)

    /// Saves from now on wait until `open()`.
    func close() { gate.withLock { $0.closed = true } }

    func open() {
        gate.withLock { $0.closed = false }
        opened.signal()
    }

    /// A save is waiting at the gate.
    var saveIsWaiting: Bool { gate.current.waiting }

    func save(_ data: Data, key: String) throws {
        let waits = gate.withLock { gate -> Bool in
            gate.waiting = gate.closed
            return gate.closed
        }
        if waits {
            // The deadline only catches a test that never opens the gate.
            _ = opened.wait(timeout: .now() + 120)
            gate.withLock { $0.waiting = false }
        }
        try inner.save(data, key: key)
    }

    func load(key: String) throws -> Data? { try inner.load(key: key) }
    func remove(key: String) throws { try inner.remove(key: key) }
}
