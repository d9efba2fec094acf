import Storage

/// Counters. SQLite runs write transactions one at a time, so the single upsert below is trivially free of
/// races; it is the same statement the PostgreSQL backend runs, where its row lock is what matters.
extension SQLiteTransaction {
    func addToCounter(_ key: String, windowEndsAt: Int64, delta: Int, limit: Int) throws -> Int? {
        try connection.queryFirst(
            """
            INSERT INTO counters AS c (key, window_ends_at, count)
            SELECT ?1, ?2, max(?3, 0) WHERE ?3 <= ?4
            ON CONFLICT (key) DO UPDATE SET
                window_ends_at = max(c.window_ends_at, excluded.window_ends_at),
                count = max(0, CASE WHEN excluded.window_ends_at > c.window_ends_at THEN 0 ELSE c.count END + ?3)
            WHERE CASE WHEN excluded.window_ends_at > c.window_ends_at THEN 0 ELSE c.count END + ?3 <= ?4
            RETURNING count
            """,
            [.init(key), .init(windowEndsAt), .init(delta), .init(limit)]
        ) { row throws(StoreError) in Int(try row.integer(0)) }
    }

    func counter(_ key: String, windowEndsAt: Int64) throws -> Int {
        try connection.queryFirst(
            "SELECT count FROM counters WHERE key = ? AND window_ends_at >= ?", [.init(key), .init(windowEndsAt)]
        ) { row throws(StoreError) in Int(try row.integer(0)) } ?? 0
    }

    func deleteExpiredCounters(endedBy ms: Int64) throws -> Int {
        try connection.execute("DELETE FROM counters WHERE window_ends_at <= ?", [.init(ms)])
    }
}
