import AuthCore
import Storage
import Testing

@Suite("UserStore conformance: counters")
struct CounterConformanceTests {
    private static func add(_ store: any UserStore, _ key: String = "k", window: Int64 = 100, delta: Int = 1,
                            limit: Int = 3) async throws -> Int? {
        try await store.write { tx in try tx.addToCounter(key, windowEndsAt: window, delta: delta, limit: limit) }
    }

    private static func count(_ store: any UserStore, _ key: String = "k", window: Int64 = 100) async throws -> Int {
        try await store.read { tx in try tx.counter(key, windowEndsAt: window) }
    }

    @Test("a counter counts up to its limit and a refused addition changes nothing", arguments: StoreFactory.all)
    func countsToLimit(factory: StoreFactory) async throws {
        try await withStore(factory) { (store) async throws in
            var results: [Int?] = []
            for _ in 0..<4 { results.append(try await Self.add(store)) }
            #expect(results == [1, 2, 3, nil])
            #expect(try await Self.count(store) == 3)
            #expect(try await Self.count(store, "other") == 0)
            #expect(try await Self.add(store, delta: 5, limit: 4) == nil)
            #expect(try await Self.add(store, "fresh", delta: 5, limit: 4) == nil)
            #expect(try await Self.count(store, "fresh") == 0)
        }
    }

    @Test("a later window starts from zero, and an earlier one counts in the later one", arguments: StoreFactory.all)
    func windows(factory: StoreFactory) async throws {
        try await withStore(factory) { (store) async throws in
            #expect(try await Self.add(store, window: 100) == 1)
            #expect(try await Self.add(store, window: 100) == 2)
            #expect(try await Self.add(store, window: 200) == 1)
            // An instance whose clock lags is still in window 100: its event counts in window 200.
            #expect(try await Self.add(store, window: 100) == 2)
            #expect(try await Self.count(store, window: 200) == 2)
            #expect(try await Self.count(store, window: 100) == 2)
            #expect(try await Self.count(store, window: 300) == 0)
        }
    }

    @Test("a negative delta gives events back but never goes below zero", arguments: StoreFactory.all)
    func refunds(factory: StoreFactory) async throws {
        try await withStore(factory) { (store) async throws in
            #expect(try await Self.add(store) == 1)
            #expect(try await Self.add(store) == 2)
            #expect(try await Self.add(store, delta: -1) == 1)
            #expect(try await Self.add(store, delta: -5) == 0)
            #expect(try await Self.add(store, "never-counted", delta: -1) == 0)
        }
    }

    @Test("of 30 concurrent additions under a limit of 10, exactly 10 count", arguments: StoreFactory.all)
    func concurrentAdditions(factory: StoreFactory) async throws {
        try await withStore(factory) { (store) async throws in
            let results = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<30 { group.addTask { try await Self.add(store, limit: 10) } }
                var all: [Int?] = []
                for try await result in group { all.append(result) }
                return all
            }
            #expect(results.compactMap { $0 }.sorted() == Array(1...10))
            #expect(results.filter { $0 == nil }.count == 20)
            #expect(try await Self.count(store) == 10)
        }
    }

    @Test("expired counters are deleted and current ones kept", arguments: StoreFactory.all)
    func expiry(factory: StoreFactory) async throws {
        try await withStore(factory) { (store) async throws in
            _ = try await Self.add(store, "old", window: 100)
            _ = try await Self.add(store, "edge", window: 150)
            _ = try await Self.add(store, "new", window: 200)
            let deleted = try await store.write { tx in try tx.deleteExpiredCounters(endedBy: 150) }
            #expect(deleted == 2)
            #expect(try await Self.count(store, "new", window: 200) == 1)
            #expect(try await Self.count(store, "old", window: 100) == 0)
        }
    }

    @Test("counter writes inside a read transaction are refused", arguments: StoreFactory.all)
    func readOnly(factory: StoreFactory) async throws {
        try await withStore(factory) { (store) async throws in
            await #expect(throws: StoreError.readOnly) {
                try await store.read { tx in try tx.addToCounter("k", windowEndsAt: 1, delta: 1, limit: 1) }
            }
            await #expect(throws: StoreError.readOnly) {
                try await store.read { tx in try tx.deleteExpiredCounters(endedBy: 1) }
            }
        }
    }

    @Test("an addition rolled back with its transaction is not counted", arguments: StoreFactory.all)
    func rolledBack(factory: StoreFactory) async throws {
        struct Abort: Error {}
        try await withStore(factory) { (store) async throws in
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    _ = try tx.addToCounter("k", windowEndsAt: 100, delta: 1, limit: 3)
                    throw Abort()
                }
            }
            #expect(try await Self.count(store) == 0)
        }
    }
}
