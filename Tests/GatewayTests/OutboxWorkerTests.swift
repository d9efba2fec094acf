import AuthCore
import Storage
import Synchronization
import Testing
@testable import Gateway

/// The outbox's claim loop: every item goes to exactly one worker, even when attempts outlast the lease.
@Suite("Outbox worker")
struct OutboxWorkerTests {
    @Test("items are leased one at a time, so a slow batch never lets another worker send the same item again")
    func slowAttemptsAreNotRepeated() async throws {
        let store = InMemoryUserStore()
        let time = ManualTime(milliseconds: 1_000_000)
        try await store.write { tx in
            for index in 0..<4 {
                try tx.insertOutboxItem(OutboxItem(id: "item-\(index)", kind: "k", payload: "", nextAttemptAt: 0,
                                                   createdAt: Int64(index)))
            }
        }
        let first = OutboxWorker(kind: "k", store: store, time: time, leaseMilliseconds: 10_000)
        let second = OutboxWorker(kind: "k", store: store, time: time, leaseMilliseconds: 10_000)
        let attempts = Mutex<[String]>([])
        let secondRan = Mutex(false)
        _ = try await first.runDue(limit: 4) { item in
            attempts.withLock { $0.append(item.id) }
            // Each attempt fits in the lease, but the whole batch takes longer than one lease (a slow mail server)...
            time.advance(seconds: 6)
            // ...and meanwhile, after two attempts, another instance looks at the outbox.
            if attempts.withLock({ $0.count }) == 2 && !secondRan.withLock({ $0 }) {
                secondRan.withLock { $0 = true }
                _ = try? await second.runDue(limit: 4) { other in
                    attempts.withLock { $0.append(other.id) }
                    return .done
                }
            }
            return .done
        }
        let seen = attempts.withLock { $0 }
        #expect(seen.sorted() == ["item-0", "item-1", "item-2", "item-3"], "each item attempted once: \(seen)")
        #expect(try await store.read { try $0.outboxItems(kind: "k") }.isEmpty)
    }
}
