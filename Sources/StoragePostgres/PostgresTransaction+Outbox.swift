import AuthCore
import Storage

extension PostgresTransaction {
    // MARK: Outbox

    func insertOutboxItem(_ item: OutboxItem) throws {
        try requireWritable()
        let inserted = try run(
            "INSERT INTO outbox (\(TokenRows.outboxColumns)) VALUES (\(Placeholders.list(7))) ON CONFLICT DO NOTHING",
            TokenRows.values(item))
        guard inserted.changedRows > 0 else { throw StoreError.uniqueViolation(.outboxItem) }
    }

    /// In a write transaction the due rows are locked (`FOR UPDATE SKIP LOCKED`) until it ends: a worker on
    /// another instance claiming at the same moment skips them and takes the next ones, so every item is
    /// claimed by exactly one transaction.
    func dueOutboxItems(kind: String, dueBy ms: Int64, limit: Int) throws -> [OutboxItem] {
        guard limit > 0 else { return [] }
        let lock = isWritable ? " FOR UPDATE SKIP LOCKED" : ""
        return try run(
            """
            SELECT \(TokenRows.outboxColumns) FROM outbox WHERE kind = $1 AND next_attempt_at <= $2
            ORDER BY next_attempt_at, id LIMIT $3\(lock)
            """,
            [.init(kind), .init(ms), .init(limit)]
        ).rows(TokenRows.outboxItem)
    }

    func outboxItems(kind: String) throws -> [OutboxItem] {
        try run("SELECT \(TokenRows.outboxColumns) FROM outbox WHERE kind = $1 ORDER BY created_at, id", [.init(kind)])
            .rows(TokenRows.outboxItem)
    }

    func updateOutboxItem(_ item: OutboxItem) throws {
        try requireWritable()
        let values = TokenRows.values(item)
        let changed = try run(
            """
            UPDATE outbox SET kind = $1, payload = $2, attempts = $3, next_attempt_at = $4, created_at = $5,
            last_error = $6 WHERE id = $7
            """,
            Array(values.dropFirst()) + [values[0]]
        ).changedRows
        guard changed > 0 else { throw StoreError.notFound }
    }

    func deleteOutboxItem(id: String) throws -> Bool {
        try requireWritable()
        return try run("DELETE FROM outbox WHERE id = $1", [.init(id)]).changedRows > 0
    }

    // MARK: Settings (in a write transaction, read and written under the setting's lock)

    func setting(_ key: String) throws -> String? {
        try run("SELECT value FROM settings WHERE key = $1", [.init(key)], after: Self.lockSetting, [.init(key)])
            .rows { row throws(StoreError) in try row.text(0) }.first
    }

    func setSetting(_ key: String, value: String?) throws {
        try requireWritable()
        guard let value else {
            try run("DELETE FROM settings WHERE key = $1", [.init(key)], after: Self.lockSetting, [.init(key)])
            return
        }
        try run(
            "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.init(key), .init(value)], after: Self.lockSetting, [.init(key)])
    }
}
