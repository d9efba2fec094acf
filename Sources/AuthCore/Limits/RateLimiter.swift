import Synchronization

/// A fixed-window counter per key (client IP, email, account), in memory.
///
/// Counters are per process: with several instances each enforces its own limit, which the README
/// documents. Windows are aligned to the limiter's clock so behaviour is deterministic under `ManualTime`.
public final class RateLimiter: Sendable {
    public let limit: Int
    public let windowMilliseconds: Int64
    private let time: any TimeSource
    private let state = Mutex<[String: (window: Int64, count: Int)]>([:])

    /// - Parameters:
    ///   - limit: events allowed per window; 0 or less disables the limiter.
    ///   - windowSeconds: window length.
    public init(limit: Int, windowSeconds: Int64, time: any TimeSource) {
        self.limit = limit
        self.windowMilliseconds = max(1, windowSeconds) * 1000
        self.time = time
    }

    /// Records one event for `key`; returns false (and records nothing) when the key is over its limit.
    public func allow(_ key: String) -> Bool {
        guard limit > 0 else { return true }
        let window = time.nowMilliseconds / windowMilliseconds
        return state.withLock { entries in
            if entries.count > 100_000 { entries = entries.filter { $0.value.window == window } }
            var entry = entries[key] ?? (window, 0)
            if entry.window != window { entry = (window, 0) }
            guard entry.count < limit else { return false }
            entry.count += 1
            entries[key] = entry
            return true
        }
    }

    /// Gives back one event recorded for `key` in the current window (an attempt that turned out fine).
    public func refund(_ key: String) {
        guard limit > 0 else { return }
        let window = time.nowMilliseconds / windowMilliseconds
        state.withLock { entries in
            guard var entry = entries[key], entry.window == window, entry.count > 0 else { return }
            entry.count -= 1
            entries[key] = entry
        }
    }

    /// Events `key` may still record in the current window, without recording one (`Int.max` when the
    /// limiter is disabled).
    public func remaining(_ key: String) -> Int {
        guard limit > 0 else { return Int.max }
        let window = time.nowMilliseconds / windowMilliseconds
        return state.withLock { entries in
            guard let entry = entries[key], entry.window == window else { return limit }
            return max(0, limit - entry.count)
        }
    }
}
