import Synchronization

/// Counts operations in flight so that `close()` can wait for them before releasing threads and files.
/// Shared by the store backends of this package; after closing, `enter()` refuses new work.
package final class UseGate: Sendable {
    private struct State {
        var closed = false
        var active = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    package init() {}

    /// Registers one operation. Throws `StoreError.unavailable` once the gate is closed.
    package func enter() throws(StoreError) {
        let open = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.active += 1
            return true
        }
        guard open else { throw StoreError.unavailable("the store is closed") }
    }

    /// Ends an operation registered with `enter()`.
    package func leave() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.active -= 1
            guard s.closed, s.active == 0 else { return [] }
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Closes the gate and waits until no operation is in flight. Returns true only for the first call, so
    /// the caller releases its resources once.
    package func closeAndDrain() async -> Bool {
        let first = state.withLock { s -> Bool in
            defer { s.closed = true }
            return !s.closed
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { s -> Bool in
                guard s.active > 0 else { return true }
                s.waiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
        return first
    }
}
