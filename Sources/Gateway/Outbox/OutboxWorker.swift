import AuthCore
import Storage

/// What one attempt at an outbox item came to.
enum OutboxAttempt: Sendable, Equatable {
    /// Done: the item is deleted.
    case done
    /// Failed for now: try again after `afterMilliseconds`. The reason is non-secret and kept on the item; a
    /// `payload`, when given, replaces the item's (what the attempt learnt that the next one needs).
    case retry(String, afterMilliseconds: Int64, payload: String? = nil)
    /// Retrying cannot help (expired, unreadable, given up): the item is deleted and the caller reports it.
    case abandon(String)
}

/// The one claim → attempt → record loop behind every kind of durable outbox work (mail and codes to deliver,
/// provider tokens to revoke), so leasing, backoff bookkeeping and deletion are written once.
///
/// Items are claimed one at a time, each in a write transaction that pushes its `nextAttemptAt` one lease ahead,
/// just before its attempt: of several workers (threads or gateway instances on one database) each item goes to
/// exactly one, and an item whose worker died is picked up again when the lease ends. Claiming a batch under one
/// lease would let the lease of the last items run out while the first ones are still being sent (a slow mail
/// server), and another instance would send them again.
struct OutboxWorker: Sendable {
    let kind: String
    let store: any UserStore
    let time: any TimeSource
    /// How long a claimed item is reserved for one attempt (longer than an attempt can take).
    let leaseMilliseconds: Int64

    /// Claims up to `limit` due items, runs `attempt` on each in turn, and records each outcome. Returns the
    /// items with their outcomes (the caller logs and counts them).
    func runDue(limit: Int = 20,
                attempt: @Sendable (OutboxItem) async -> OutboxAttempt) async throws -> [(OutboxItem, OutboxAttempt)] {
        var results: [(OutboxItem, OutboxAttempt)] = []
        while results.count < limit, let item = try await claimNext() {
            let outcome = await attempt(item)
            try await record(outcome, for: item)
            results.append((item, outcome))
        }
        return results
    }

    /// The oldest due item, leased to this worker; nil when nothing is due.
    private func claimNext() async throws -> OutboxItem? {
        let now = time.nowMilliseconds
        let lease = leaseMilliseconds
        return try await store.write { [kind] tx in
            guard var item = try tx.dueOutboxItems(kind: kind, dueBy: now, limit: 1).first else { return nil }
            item.nextAttemptAt = now + lease
            try tx.updateOutboxItem(item)
            return item
        }
    }

    private func record(_ outcome: OutboxAttempt, for item: OutboxItem) async throws {
        let now = time.nowMilliseconds
        _ = try await store.write { tx -> Bool in
            guard case .retry(let reason, let delay, let payload) = outcome else { return try tx.deleteOutboxItem(id: item.id) }
            var next = item
            if let payload { next.payload = payload }
            next.attempts += 1
            next.lastError = String(reason.prefix(300))
            next.nextAttemptAt = now + delay
            try tx.updateOutboxItem(next)
            return true
        }
    }

    /// `initial`, doubling per failed attempt, capped at `cap` (all in milliseconds); `attempts` counts the
    /// failure just seen.
    static func backoff(afterAttempts attempts: Int, initial: Int64, cap: Int64) -> Int64 {
        min(cap, initial << Int64(min(max(attempts - 1, 0), 20)))
    }
}
