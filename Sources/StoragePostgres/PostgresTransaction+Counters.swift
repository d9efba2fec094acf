import Storage

extension PostgresTransaction {
    // MARK: Counters

    /// One upsert decides: the row lock it takes makes concurrent additions to one key wait for each other,
    /// and the `WHERE` of each sees the count the previous one committed.
    func addToCounter(_ key: String, windowEndsAt: Int64, delta: Int, limit: Int) throws -> Int? {
        try requireWritable()
        return try run(
            """
            INSERT INTO counters AS c (key, window_ends_at, count)
            SELECT $1, $2, GREATEST($3, 0) WHERE $3 <= $4
            ON CONFLICT (key) DO UPDATE SET
                window_ends_at = GREATEST(c.window_ends_at, excluded.window_ends_at),
                count = GREATEST(0, CASE WHEN excluded.window_ends_at > c.window_ends_at THEN 0 ELSE c.count END + $3)
            WHERE CASE WHEN excluded.window_ends_at > c.window_ends_at THEN 0 ELSE c.count END + $3 <= $4
            RETURNING count
            """,
            [.init(key), .init(windowEndsAt), .init(delta), .init(limit)]
        ).rows { row throws(StoreError) in Int(try row.integer(0)) }.first
    }

    func counter(_ key: String, windowEndsAt: Int64) throws -> Int {
        try run("SELECT count FROM counters WHERE key = $1 AND window_ends_at >= $2", [.init(key), .init(windowEndsAt)])
            .rows { row throws(StoreError) in Int(try row.integer(0)) }.first ?? 0
    }

    func deleteExpiredCounters(endedBy ms: Int64) throws -> Int {
        try requireWritable()
        return try run("DELETE FROM counters WHERE window_ends_at <= $1", [.init(ms)]).changedRows
    }
}
