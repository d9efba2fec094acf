import Foundation

/// Returned by `Auth.addStateDidChangeListener(_:)`; pass it to `removeStateDidChangeListener(_:)`.
public final class AuthStateDidChangeListenerHandle: Sendable, Hashable {
    let id = UUID()

    public static func == (lhs: AuthStateDidChangeListenerHandle, rhs: AuthStateDidChangeListenerHandle) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// The auth-state listeners of one `Auth`, and the lock that makes each change of the session one step.
///
/// Changes (sign-in, sign-out, a stored session rewritten) run one at a time under `changes`. Each change that
/// makes a user current queues one notification per listener, so every listener hears of the changes in the
/// order they happened, also when a listener itself signs in or out (its change is told after the one being
/// told). Listeners are called with no lock held, one at a time: by the thread that made the change, or, when
/// another thread is already delivering at that moment, by that thread right after what it is delivering. So a
/// listener may call back into `Auth`, or wait for another thread that does, without a deadlock.
final class AuthStateListeners: @unchecked Sendable {
    typealias Listener = @Sendable (User?) -> Void

    /// What a change did: nothing, or a new current user (nil when signed out).
    enum Outcome {
        case unchanged
        case current(User?)
    }

    private struct State {
        var entries: [(handle: AuthStateDidChangeListenerHandle, listener: Listener)] = []
        /// Notifications not yet delivered, oldest first.
        var queue: [(user: User?, handle: AuthStateDidChangeListenerHandle)] = []
        var delivering = false
    }

    /// Held while a change runs (recursive: a session store that calls back into `Auth` does not deadlock).
    private let changes = NSRecursiveLock()
    private let state = Locked(State())

    /// Registers `listener`; its first call, with `current()`, is queued under the change lock, so no change slips
    /// between that call and the registration.
    func add(_ listener: @escaping Listener, current: () -> User?) -> AuthStateDidChangeListenerHandle {
        let handle = AuthStateDidChangeListenerHandle()
        withChangeLock {
            let user = current()
            state.withLock { state in
                state.entries.append((handle, listener))
                state.queue.append((user, handle))
            }
        }
        deliverQueued()
        return handle
    }

    /// After this returns the listener is not called again (unless a call is already running).
    func remove(_ handle: AuthStateDidChangeListenerHandle) {
        state.withLock { state in
            state.entries.removeAll { $0.handle == handle }
            state.queue.removeAll { $0.handle == handle }
        }
    }

    /// Runs `change` as one step (no other change runs meanwhile), then tells every listener about the user it
    /// made current.
    func change<Result>(_ change: () throws -> (Result, Outcome)) rethrows -> Result {
        let result = try withChangeLock {
            let (result, outcome) = try change()
            if case .current(let user) = outcome {
                state.withLock { state in state.queue += state.entries.map { (user, $0.handle) } }
            }
            return result
        }
        deliverQueued()
        return result
    }

    func deliver(_ change: () throws -> Outcome) rethrows {
        try self.change { ((), try change()) }
    }

    private func withChangeLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        changes.lock()
        defer { changes.unlock() }
        return try body()
    }

    /// Delivers the queue unless another call up the stack, or another thread, is delivering it already.
    private func deliverQueued() {
        let starts = state.withLock { state -> Bool in
            guard !state.delivering else { return false }
            state.delivering = true
            return true
        }
        guard starts else { return }
        while let (user, listener) = nextNotification() { listener(user) }
    }

    private func nextNotification() -> (User?, Listener)? {
        state.withLock { state in
            while !state.queue.isEmpty {
                let (user, handle) = state.queue.removeFirst()
                if let entry = state.entries.first(where: { $0.handle == handle }) { return (user, entry.listener) }
            }
            state.delivering = false
            return nil
        }
    }
}
