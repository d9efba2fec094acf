import Foundation

/// Returned by `Auth.addStateDidChangeListener(_:)`; pass it to `removeStateDidChangeListener(_:)`.
public final class AuthStateDidChangeListenerHandle: Sendable, Hashable {
    let id = UUID()

    public static func == (lhs: AuthStateDidChangeListenerHandle, rhs: AuthStateDidChangeListenerHandle) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// The auth-state listeners of one `Auth`. Notifications are delivered one at a time, in the order of the
/// changes, on the thread that made the change; a listener may call back into `Auth` (the lock is recursive).
final class AuthStateListeners: @unchecked Sendable {
    typealias Listener = @Sendable (User?) -> Void

    private let delivery = NSRecursiveLock()
    private let entries = Locked<[(AuthStateDidChangeListenerHandle, Listener)]>([])

    /// Registers `listener` and calls it at once with `current()`, inside the delivery lock so no change slips
    /// between the first call and the registration.
    func add(_ listener: @escaping Listener, current: () -> User?) -> AuthStateDidChangeListenerHandle {
        delivery.lock()
        defer { delivery.unlock() }
        let handle = AuthStateDidChangeListenerHandle()
        entries.withLock { $0.append((handle, listener)) }
        listener(current())
        return handle
    }

    func remove(_ handle: AuthStateDidChangeListenerHandle) {
        entries.withLock { $0.removeAll { $0.0 == handle } }
    }

    /// What a change did: nothing, or a new current user (nil when signed out).
    enum Outcome {
        case unchanged
        case current(User?)
    }

    /// Runs `change` and then tells every listener about the user it made current, as one step.
    func deliver(_ change: () throws -> Outcome) rethrows {
        delivery.lock()
        defer { delivery.unlock() }
        guard case .current(let user) = try change() else { return }
        for (_, listener) in entries.current { listener(user) }
    }
}
