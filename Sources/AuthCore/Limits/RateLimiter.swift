import Synchronization

/// A fixed-window counter per key (client IP or /64, email), in memory.
///
/// Counters are per process: with several instances each enforces its own limit, which the README
/// documents (limits that must hold across instances count in the store: `AbuseCounters`). Windows are
/// aligned to the limiter's clock so behaviour is deterministic under `ManualTime`.
///
/// Only the current window is kept: a new window starts from an empty table, so every call costs O(1) and
/// memory holds at most `maxKeys` entries. Beyond that, within one window, keys not yet counted are let through
/// uncounted: a client that spreads over that many networks already has that many budgets, and refusing new
/// keys instead would lock out legitimate clients for the rest of the window.
public final class RateLimiter: Sendable {
    public let limit: Int
    public let windowMilliseconds: Int64
    public let maxKeys: Int
    private let time: any TimeSource
    private let state = Mutex<(window: Int64, counts: [String: Int])>((0, [:]))

    /// - Parameters:
    ///   - limit: events allowed per window; 0 or less disables the limiter.
    ///   - windowSeconds: window length.
    ///   - maxKeys: the most keys counted in one window.
    public init(limit: Int, windowSeconds: Int64, time: any TimeSource, maxKeys: Int = 200_000) {
        self.limit = limit
        self.windowMilliseconds = max(1, windowSeconds) * 1000
        self.maxKeys = max(1, maxKeys)
        self.time = time
    }

    /// Records one event for `key`; returns false (and records nothing) when the key is over its limit.
    public func allow(_ key: String) -> Bool {
        guard limit > 0 else { return true }
        return withCurrentWindow { counts in
            let count = counts[key] ?? 0
            guard count < limit else { return false }
            if count > 0 || counts.count < maxKeys { counts[key] = count + 1 }
            return true
        }
    }

    /// Gives back one event recorded for `key` in the current window (an attempt that turned out fine).
    public func refund(_ key: String) {
        guard limit > 0 else { return }
        withCurrentWindow { counts in
            guard let count = counts[key], count > 0 else { return }
            counts[key] = count - 1
        }
    }

    /// Events `key` may still record in the current window, without recording one (`Int.max` when the
    /// limiter is disabled).
    public func remaining(_ key: String) -> Int {
        guard limit > 0 else { return Int.max }
        return withCurrentWindow { counts in max(0, limit - (counts[key] ?? 0)) }
    }

    /// Keys counted in the current window.
    public var trackedKeys: Int { withCurrentWindow { $0.count } }

    private func withCurrentWindow<T>(_ body: (inout [String: Int]) -> T) -> T {
        let window = time.nowMilliseconds / windowMilliseconds
        return state.withLock { state in
            if state.window != window { state = (window, [:]) }
            return body(&state.counts)
        }
    }
}
