import AuthCore
import Storage

/// Listing every record, in pages, for copying a store (`StoreCopier`). BLOBs compare as bytes (memcmp,
/// shorter first on a tie), as PostgreSQL's BYTEA does.
extension SQLiteTransaction {
    func refreshTokens(after: RefreshTokenKey?, limit: Int) throws -> [RefreshTokenRecord] {
        guard limit > 0 else { return [] }
        guard let after else {
            return try connection.query(
                "SELECT \(TokenRows.refreshColumns) FROM refresh_tokens ORDER BY local_id, token_hash LIMIT ?",
                [.init(limit)], TokenRows.refreshToken)
        }
        return try connection.query(
            """
            SELECT \(TokenRows.refreshColumns) FROM refresh_tokens WHERE (local_id, token_hash) > (?, ?)
            ORDER BY local_id, token_hash LIMIT ?
            """,
            [.init(after.localId), .init(after.tokenHash), .init(limit)], TokenRows.refreshToken)
    }

    func oneTimeTokens(after: (kind: String, tokenHash: [UInt8])?, limit: Int) throws -> [OneTimeTokenRecord] {
        guard limit > 0 else { return [] }
        guard let after else {
            return try connection.query(
                "SELECT \(TokenRows.oneTimeColumns) FROM one_time_tokens ORDER BY kind, token_hash LIMIT ?",
                [.init(limit)], TokenRows.oneTimeToken)
        }
        return try connection.query(
            """
            SELECT \(TokenRows.oneTimeColumns) FROM one_time_tokens WHERE (kind, token_hash) > (?, ?)
            ORDER BY kind, token_hash LIMIT ?
            """,
            [.init(after.kind), .init(after.tokenHash), .init(limit)], TokenRows.oneTimeToken)
    }

    func outboxItems(afterId: String?, limit: Int) throws -> [OutboxItem] {
        guard limit > 0 else { return [] }
        guard let afterId else {
            return try connection.query(
                "SELECT \(OutboxRows.columns) FROM outbox ORDER BY id LIMIT ?", [.init(limit)], OutboxRows.decode)
        }
        return try connection.query(
            "SELECT \(OutboxRows.columns) FROM outbox WHERE id > ? ORDER BY id LIMIT ?",
            [.init(afterId), .init(limit)], OutboxRows.decode)
    }

    func settings() throws -> [String: String] {
        let pairs = try connection.query("SELECT key, value FROM settings") { row throws(StoreError) in
            (try row.text(0), try row.text(1))
        }
        return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }
}
