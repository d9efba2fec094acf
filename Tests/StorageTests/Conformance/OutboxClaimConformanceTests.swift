import AuthCore
import Storage
import Testing

@Suite("UserStore conformance: claiming outbox items")
struct OutboxClaimConformanceTests {
    private static let now: Int64 = 10_000
    private static let lease: Int64 = 60_000

    /// One claim as a worker makes it: in one write transaction, select due items and push each one's
    /// `nextAttemptAt` past the lease, so no other worker sees it as due until the lease runs out.
    private static func claim(_ store: any UserStore, limit: Int) async throws -> [String] {
        try await store.write { tx in
            let due = try tx.dueOutboxItems(kind: "mail", dueBy: now, limit: limit)
            for var item in due {
                item.attempts += 1
                item.nextAttemptAt = now + lease
                try tx.updateOutboxItem(item)
            }
            return due.map(\.id)
        }
    }

    @Test("two workers claiming at once get every due item exactly once between them", arguments: StoreFactory.all)
    func claimRace(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let ids = (0..<40).map { "job-\($0)" }
            try await store.write { tx in
                for (index, id) in ids.enumerated() {
                    try tx.insertOutboxItem(Fixture.outboxItem(id, nextAttemptAt: Int64(index) * 100))
                }
                try tx.insertOutboxItem(Fixture.outboxItem("not-yet", nextAttemptAt: Self.now + 1))
            }
            let claims = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        var mine: [String] = []
                        while true {
                            let batch = try await Self.claim(store, limit: 3)
                            if batch.isEmpty { return mine }
                            mine += batch
                        }
                    }
                }
                var all: [[String]] = []
                for try await claimed in group { all.append(claimed) }
                return all
            }
            let claimed = claims.flatMap { $0 }
            #expect(claimed.count == ids.count)
            #expect(Set(claimed) == Set(ids))
            let stored = try await store.read { try $0.outboxItems(kind: "mail") }
            let leased = stored.filter { $0.id != "not-yet" }
            #expect(leased.count == ids.count)
            #expect(leased.allSatisfy { $0.attempts == 1 && $0.nextAttemptAt == Self.now + Self.lease })
            #expect(stored.first { $0.id == "not-yet" }?.attempts == 0)
        }
    }

    @Test("a leased item is due again once its lease runs out", arguments: StoreFactory.all)
    func leaseExpires(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertOutboxItem(Fixture.outboxItem("job", nextAttemptAt: 0)) }
            #expect(try await Self.claim(store, limit: 10) == ["job"])
            #expect(try await Self.claim(store, limit: 10) == [])
            let dueAfterLease = try await store.read { tx in
                try tx.dueOutboxItems(kind: "mail", dueBy: Self.now + Self.lease, limit: 10).map(\.id)
            }
            #expect(dueAfterLease == ["job"])
        }
    }
}
