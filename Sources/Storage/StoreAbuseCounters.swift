import AuthCore
import Synchronization

/// `AbuseCounters` in the store, shared by every instance on the database: each admission is one write
/// transaction whose counter upserts either all succeed or roll back together.
///
/// Expired counters are harmless (a later window starts from 0 again) but take space, so every
/// `sweepEvery`-th admission also deletes the counters whose window has ended.
public final class StoreAbuseCounters: AbuseCounters {
    private struct OverLimit: Error {}

    private let store: any UserStore
    private let time: any TimeSource
    private let sweepEvery: Int
    private let admissions = Atomic<Int>(0)

    public init(store: any UserStore, time: any TimeSource, sweepEvery: Int = 1024) {
        self.store = store
        self.time = time
        self.sweepEvery = max(1, sweepEvery)
    }

    public func admit(_ events: [LimitedEvent]) async throws -> Bool {
        let counted = events.filter { $0.limit > 0 }
        guard !counted.isEmpty else { return true }
        let now = time.nowMilliseconds
        if admissions.add(1, ordering: .relaxed).newValue % sweepEvery == 0 {
            _ = try await store.write { tx in try tx.deleteExpiredCounters(endedBy: now) }
        }
        do {
            try await store.write { tx in
                for event in counted {
                    let added = try tx.addToCounter(event.key, windowEndsAt: event.windowEnd(at: now), delta: 1,
                                                    limit: event.limit)
                    if added == nil { throw OverLimit() }
                }
            }
            return true
        } catch is OverLimit {
            return false
        }
    }

    public func refund(_ event: LimitedEvent) async throws {
        guard event.limit > 0 else { return }
        let windowEnd = event.windowEnd(at: time.nowMilliseconds)
        _ = try await store.write { tx in
            try tx.addToCounter(event.key, windowEndsAt: windowEnd, delta: -1, limit: Int.max)
        }
    }
}
