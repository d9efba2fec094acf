import AuthCore
import Storage

/// How outbox items map onto the `outbox` table.
enum OutboxRows {
    static let columns = "id, kind, payload, attempts, next_attempt_at, created_at, last_error"

    static let insert = "INSERT INTO outbox (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?)"

    static let update = """
        UPDATE outbox SET kind = ?, payload = ?, attempts = ?, next_attempt_at = ?, created_at = ?, last_error = ?
        WHERE id = ?
        """

    static func values(_ item: OutboxItem) -> [SQLValue] {
        [
            .init(item.id), .init(item.kind), .init(item.payload), .init(item.attempts), .init(item.nextAttemptAt),
            .init(item.createdAt), .init(item.lastError),
        ]
    }

    /// The values of `update`: every column but the id, then the id for the WHERE clause.
    static func updateValues(_ item: OutboxItem) -> [SQLValue] {
        let all = values(item)
        return Array(all.dropFirst()) + [all[0]]
    }

    static func decode(_ row: Row) throws(StoreError) -> OutboxItem {
        OutboxItem(
            id: try row.text(0), kind: try row.text(1), payload: try row.text(2), attempts: Int(try row.integer(3)),
            nextAttemptAt: try row.integer(4), createdAt: try row.integer(5), lastError: row.optionalText(6))
    }
}
