import Foundation

/// A value guarded by a lock: the one way mutable state is shared between threads in this library.
///
/// `NSLock` rather than `Synchronization.Mutex` so the library builds for iOS and macOS versions older than
/// the ones that ship `Mutex`. The closure must not call back into code that takes the same lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}
