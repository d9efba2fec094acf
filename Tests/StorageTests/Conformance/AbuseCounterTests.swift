import AuthCore
import Storage
import Testing

@Suite("Abuse counters in the store")
struct AbuseCounterTests {
    @Test("an admission of several events is all or nothing", arguments: StoreFactory.all)
    func allOrNothing(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let counters = StoreAbuseCounters(store: store, time: ManualTime(milliseconds: 5_000))
            let ip = LimitedEvent(key: "ip", limit: 3, windowSeconds: 60)
            let tight = LimitedEvent(key: "email", limit: 1, windowSeconds: 60)
            #expect(try await counters.admit([ip, tight]))
            #expect(try await !counters.admit([ip, tight]))
            let counts = try await store.read { tx in
                (try tx.counter("ip", windowEndsAt: 60_000), try tx.counter("email", windowEndsAt: 60_000))
            }
            #expect(counts == (1, 1))
            #expect(try await counters.admit([ip, LimitedEvent(key: "off", limit: 0, windowSeconds: 60)]))
            #expect(try await store.read { tx in try tx.counter("off", windowEndsAt: 60_000) } == 0)
        }
    }

    @Test("a refund gives one event back in the current window", arguments: StoreFactory.all)
    func refund(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let time = ManualTime(milliseconds: 0)
            let counters = StoreAbuseCounters(store: store, time: time)
            let event = LimitedEvent(key: "password:a@x.io", limit: 1, windowSeconds: 10)
            #expect(try await counters.admit([event]))
            try await counters.refund(event)
            #expect(try await counters.admit([event]))
            #expect(try await !counters.admit([event]))
            time.advance(seconds: 10)
            #expect(try await counters.admit([event]))
        }
    }

    @Test("every n-th admission deletes the counters whose window has ended", arguments: StoreFactory.all)
    func sweep(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let time = ManualTime(milliseconds: 0)
            let counters = StoreAbuseCounters(store: store, time: time, sweepEvery: 3)
            #expect(try await counters.admit([LimitedEvent(key: "old", limit: 5, windowSeconds: 1)]))
            time.advance(seconds: 2)
            #expect(try await counters.admit([LimitedEvent(key: "new", limit: 5, windowSeconds: 60)]))
            let before = try await store.read { tx in try tx.counter("old", windowEndsAt: 0) }
            #expect(try await counters.admit([LimitedEvent(key: "new", limit: 5, windowSeconds: 60)]))
            let after = try await store.read { tx in (try tx.counter("old", windowEndsAt: 0), try tx.counter("new", windowEndsAt: 60_000)) }
            #expect(before == 1)
            #expect(after == (0, 2))
        }
    }
}
