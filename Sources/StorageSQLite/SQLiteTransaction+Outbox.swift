import AuthCore
import Storage

/// The outbox. SQLite runs write transactions one at a time (`BEGIN IMMEDIATE`), so a write transaction
/// that selects due items and pushes them forward has claimed them before any other writer looks.
extension SQLiteTransaction {
    func insertOutboxItem(_ item: OutboxItem) throws {
        try connection.execute(OutboxRows.insert, OutboxRows.values(item))
    }

    func dueOutboxItems(kind: String, dueBy ms: Int64, limit: Int) throws -> [OutboxItem] {
        guard limit > 0 else { return [] }
        return try connection.query(
            """
            SELECT \(OutboxRows.columns) FROM outbox WHERE kind = ? AND next_attempt_at <= ?
            ORDER BY next_attempt_at, id LIMIT ?
            """,
            [.init(kind), .init(ms), .init(limit)], OutboxRows.decode)
    }

    func outboxItems(kind: String) throws -> [OutboxItem] {
        try connection.query(
            "SELECT \(OutboxRows.columns) FROM outbox WHERE kind = ? ORDER BY created_at, id",
            [.init(kind)], OutboxRows.decode)
    }

    func updateOutboxItem(_ item: OutboxItem) throws {
        guard try connection.execute(OutboxRows.update, OutboxRows.updateValues(item)) > 0 else {
            throw StoreError.notFound
        }
    }

    func deleteOutboxItem(id: String) throws -> Bool {
        try connection.execute("DELETE FROM outbox WHERE id = ?", [.init(id)]) > 0
    }
}
