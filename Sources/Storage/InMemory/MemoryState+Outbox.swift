import AuthCore

extension MemoryState {
    // MARK: Outbox

    mutating func insertOutboxItem(_ item: OutboxItem) throws(StoreError) {
        guard outbox[item.id] == nil else { throw .uniqueViolation(.outboxItem) }
        outbox[item.id] = item
    }

    mutating func updateOutboxItem(_ item: OutboxItem) throws(StoreError) {
        guard outbox[item.id] != nil else { throw .notFound }
        outbox[item.id] = item
    }

    func dueOutboxItems(kind: String, dueBy ms: Int64, limit: Int) -> [OutboxItem] {
        guard limit > 0 else { return [] }
        let due = outbox.values.filter { $0.kind == kind && $0.nextAttemptAt <= ms }
        let soonestFirst = due.sorted { a, b in
            a.nextAttemptAt != b.nextAttemptAt ? a.nextAttemptAt < b.nextAttemptAt : a.id.precedesInByteOrder(b.id)
        }
        return Array(soonestFirst.prefix(limit))
    }

    func outboxItems(kind: String) -> [OutboxItem] {
        outbox.values.filter { $0.kind == kind }.sorted { a, b in
            a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.id.precedesInByteOrder(b.id)
        }
    }
}
