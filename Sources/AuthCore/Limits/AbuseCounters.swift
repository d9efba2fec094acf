import Synchronization

/// One event an abuse limit counts: `key` may happen `limit` times per fixed window of `windowSeconds`
/// (windows aligned to the epoch, so every instance agrees on them). A limit of 0 or less disables it.
public struct LimitedEvent: Sendable, Equatable {
    public var key: String
    public var limit: Int
    public var windowSeconds: Int64

    public init(key: String, limit: Int, windowSeconds: Int64) {
        self.key = key
        self.limit = limit
        self.windowSeconds = windowSeconds
    }

    /// When the window containing `nowMilliseconds` ends (milliseconds since the epoch).
    public func windowEnd(at nowMilliseconds: Int64) -> Int64 {
        let length = max(1, windowSeconds) * 1000
        return (nowMilliseconds / length + 1) * length
    }
}

/// Where the counters behind abuse limits live (password attempts, code sends). Several gateway instances
/// behind one load balancer must share them, or an attacker gets each instance's budget: the gateway uses
/// the store's counters (`StoreAbuseCounters`); `LocalAbuseCounters` keeps them in this process (tests, and
/// providers built without a store).
public protocol AbuseCounters: Sendable {
    /// Records one event for each of `events` if every one is under its limit; otherwise records nothing
    /// and returns false.
    func admit(_ events: [LimitedEvent]) async throws -> Bool
    /// Gives back one event recorded for `event` in the current window (an attempt that turned out fine).
    func refund(_ event: LimitedEvent) async throws
}

/// `AbuseCounters` in this process only.
public final class LocalAbuseCounters: AbuseCounters {
    private struct Entry {
        var windowEnd: Int64
        var count: Int
    }

    private let time: any TimeSource
    private let entries = Mutex<[String: Entry]>([:])

    public init(time: any TimeSource) { self.time = time }

    public func admit(_ events: [LimitedEvent]) async throws -> Bool {
        let now = time.nowMilliseconds
        let counted = events.filter { $0.limit > 0 }
        return entries.withLock { entries in
            if entries.count > 100_000 { entries = entries.filter { $0.value.windowEnd > now } }
            let counts = counted.map { event in Self.counting(entries[event.key], windowEnd: event.windowEnd(at: now)) }
            guard zip(counted, counts).allSatisfy({ $1.count < $0.limit }) else { return false }
            for (event, entry) in zip(counted, counts) {
                entries[event.key] = Entry(windowEnd: entry.windowEnd, count: entry.count + 1)
            }
            return true
        }
    }

    public func refund(_ event: LimitedEvent) async throws {
        let windowEnd = event.windowEnd(at: time.nowMilliseconds)
        entries.withLock { entries in
            guard let entry = entries[event.key], entry.windowEnd == windowEnd, entry.count > 0 else { return }
            entries[event.key]?.count = entry.count - 1
        }
    }

    /// The entry as it counts in the window ending at `windowEnd`: a stale one starts again from 0.
    private static func counting(_ entry: Entry?, windowEnd: Int64) -> Entry {
        guard let entry, entry.windowEnd >= windowEnd else { return Entry(windowEnd: windowEnd, count: 0) }
        return entry
    }
}
