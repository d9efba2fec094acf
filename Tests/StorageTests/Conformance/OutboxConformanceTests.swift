import AuthCore
import Storage
import Testing
import TestSupport

@Suite("UserStore conformance: outbox")
struct OutboxConformanceTests {
    private struct Abort: Error {}

    @Test("an item reads back whole, and a second item with its id is refused", arguments: StoreFactory.all)
    func insertAndDuplicate(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let item = OutboxItem(
                id: "job-1", kind: "apple.revoke", payload: "sealed:ü", attempts: 3, nextAttemptAt: 1_700_000_000_123,
                createdAt: 1_600_000_000_000, lastError: "HTTP 503")
            try await store.write { try $0.insertOutboxItem(item) }
            #expect(try await store.read { try $0.outboxItems(kind: "apple.revoke") } == [item])
            await #expect(throws: StoreError.uniqueViolation(.outboxItem)) {
                try await store.write { try $0.insertOutboxItem(Fixture.outboxItem("job-1", kind: "mail")) }
            }
            #expect(try await store.read { try $0.outboxItems(kind: "mail") } == [])
        }
    }

    @Test("due items come soonest first, ties by id, up to the limit", arguments: StoreFactory.all)
    func dueOrderAndLimit(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            var generator = SplitMix64(seed: 7)
            let items = [
                Fixture.outboxItem("c", nextAttemptAt: 300), Fixture.outboxItem("b", nextAttemptAt: 100),
                Fixture.outboxItem("a", nextAttemptAt: 100), Fixture.outboxItem("d", nextAttemptAt: 400),
                Fixture.outboxItem("e", nextAttemptAt: 401),
            ].shuffled(using: &generator)
            try await store.write { tx in
                for item in items { try tx.insertOutboxItem(item) }
            }
            let due = try await store.read { tx in
                [try tx.dueOutboxItems(kind: "mail", dueBy: 400, limit: 10).map(\.id),
                 try tx.dueOutboxItems(kind: "mail", dueBy: 400, limit: 2).map(\.id),
                 try tx.dueOutboxItems(kind: "mail", dueBy: 99, limit: 10).map(\.id),
                 try tx.dueOutboxItems(kind: "mail", dueBy: 400, limit: 0).map(\.id)]
            }
            #expect(due == [["a", "b", "c", "d"], ["a", "b"], [], []])
        }
    }

    @Test("listing a kind orders by creation time, then id", arguments: StoreFactory.all)
    func listOrder(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertOutboxItem(Fixture.outboxItem("late", nextAttemptAt: 1, createdAt: 900))
                try tx.insertOutboxItem(Fixture.outboxItem("y", nextAttemptAt: 5, createdAt: 100))
                try tx.insertOutboxItem(Fixture.outboxItem("x", nextAttemptAt: 9, createdAt: 100))
            }
            #expect(try await store.read { try $0.outboxItems(kind: "mail").map(\.id) } == ["x", "y", "late"])
        }
    }

    @Test("an update replaces the item by id, and a missing item is not found", arguments: StoreFactory.all)
    func update(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertOutboxItem(Fixture.outboxItem("job", nextAttemptAt: 100)) }
            var retried = Fixture.outboxItem("job", nextAttemptAt: 100)
            retried.attempts = 1
            retried.nextAttemptAt = 5_000
            retried.lastError = "connection refused"
            let update = retried
            try await store.write { try $0.updateOutboxItem(update) }
            #expect(try await store.read { try $0.outboxItems(kind: "mail") } == [update])
            #expect(try await store.read { try $0.dueOutboxItems(kind: "mail", dueBy: 4_999, limit: 10) } == [])
            var cleared = update
            cleared.lastError = nil
            let clearedUpdate = cleared
            try await store.write { try $0.updateOutboxItem(clearedUpdate) }
            #expect(try await store.read { try $0.outboxItems(kind: "mail").first?.lastError } == nil)
            await #expect(throws: StoreError.notFound) {
                try await store.write { try $0.updateOutboxItem(Fixture.outboxItem("ghost")) }
            }
        }
    }

    @Test("deleting reports whether the item existed", arguments: StoreFactory.all)
    func delete(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertOutboxItem(Fixture.outboxItem("one"))
                try tx.insertOutboxItem(Fixture.outboxItem("two"))
            }
            let deleted = try await store.write { tx in
                [try tx.deleteOutboxItem(id: "one"), try tx.deleteOutboxItem(id: "one"), try tx.deleteOutboxItem(id: "x")]
            }
            #expect(deleted == [true, false, false])
            #expect(try await store.read { try $0.outboxItems(kind: "mail").map(\.id) } == ["two"])
        }
    }

    @Test("each kind sees only its own items", arguments: StoreFactory.all)
    func kindsKeptApart(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertOutboxItem(Fixture.outboxItem("m1", kind: "mail"))
                try tx.insertOutboxItem(Fixture.outboxItem("r1", kind: "apple.revoke"))
                try tx.insertOutboxItem(Fixture.outboxItem("m2", kind: "mail"))
            }
            let seen = try await store.read { tx in
                [try tx.dueOutboxItems(kind: "mail", dueBy: 10_000, limit: 10).map(\.id),
                 try tx.dueOutboxItems(kind: "apple.revoke", dueBy: 10_000, limit: 10).map(\.id),
                 try tx.outboxItems(kind: "apple.revoke").map(\.id),
                 try tx.outboxItems(kind: "Mail").map(\.id)]
            }
            #expect(seen == [["m1", "m2"], ["r1"], ["r1"], []])
        }
    }

    @Test("a write that throws after enqueueing leaves no item behind", arguments: StoreFactory.all)
    func rollback(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertOutboxItem(Fixture.outboxItem("kept", nextAttemptAt: 100)) }
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    try tx.insertOutboxItem(Fixture.outboxItem("lost"))
                    var leased = Fixture.outboxItem("kept", nextAttemptAt: 100)
                    leased.nextAttemptAt = 99_000
                    try tx.updateOutboxItem(leased)
                    _ = try tx.deleteOutboxItem(id: "kept")
                    throw Abort()
                }
            }
            #expect(try await store.read { try $0.outboxItems(kind: "mail") } == [
                Fixture.outboxItem("kept", nextAttemptAt: 100),
            ])
        }
    }

    @Test("outbox writes inside a read transaction are refused", arguments: StoreFactory.all)
    func readOnly(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertOutboxItem(Fixture.outboxItem("job")) }
            await #expect(throws: StoreError.readOnly) {
                try await store.read { try $0.insertOutboxItem(Fixture.outboxItem("new")) }
            }
            await #expect(throws: StoreError.readOnly) {
                try await store.read { try $0.updateOutboxItem(Fixture.outboxItem("job", nextAttemptAt: 9)) }
            }
            await #expect(throws: StoreError.readOnly) {
                try await store.read { try $0.deleteOutboxItem(id: "job") }
            }
            #expect(try await store.read { try $0.outboxItems(kind: "mail") } == [Fixture.outboxItem("job")])
        }
    }
}
