import AuthCore
import Storage

/// Listing every record, in pages, for copying a store (`StoreCopier`). BYTEA compares as bytes.
extension PostgresTransaction {
    func refreshTokens(after: RefreshTokenKey?, limit: Int) throws -> [RefreshTokenRecord] {
        guard limit > 0 else { return [] }
        guard let after else {
            return try run(
                "SELECT \(TokenRows.refreshColumns) FROM refresh_tokens ORDER BY local_id, token_hash LIMIT $1",
                [.init(limit)]).rows(TokenRows.refreshToken)
        }
        return try run(
            """
            SELECT \(TokenRows.refreshColumns) FROM refresh_tokens WHERE (local_id, token_hash) > ($1, $2)
            ORDER BY local_id, token_hash LIMIT $3
            """,
            [.init(after.localId), .init(after.tokenHash), .init(limit)]
        ).rows(TokenRows.refreshToken)
    }

    func oneTimeTokens(after: (kind: String, tokenHash: [UInt8])?, limit: Int) throws -> [OneTimeTokenRecord] {
        guard limit > 0 else { return [] }
        guard let after else {
            return try run("SELECT \(TokenRows.oneTimeColumns) FROM one_time_tokens ORDER BY kind, token_hash LIMIT $1",
                           [.init(limit)]).rows(TokenRows.oneTimeToken)
        }
        return try run(
            """
            SELECT \(TokenRows.oneTimeColumns) FROM one_time_tokens WHERE (kind, token_hash) > ($1, $2)
            ORDER BY kind, token_hash LIMIT $3
            """,
            [.init(after.kind), .init(after.tokenHash), .init(limit)]
        ).rows(TokenRows.oneTimeToken)
    }

    func outboxItems(afterId: String?, limit: Int) throws -> [OutboxItem] {
        guard limit > 0 else { return [] }
        guard let afterId else {
            return try run("SELECT \(TokenRows.outboxColumns) FROM outbox ORDER BY id LIMIT $1", [.init(limit)])
                .rows(TokenRows.outboxItem)
        }
        return try run("SELECT \(TokenRows.outboxColumns) FROM outbox WHERE id > $1 ORDER BY id LIMIT $2",
                       [.init(afterId), .init(limit)]).rows(TokenRows.outboxItem)
    }

    func settings() throws -> [String: String] {
        let pairs = try run("SELECT key, value FROM settings").rows { row throws(StoreError) in
            (try row.text(0), try row.text(1))
        }
        return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }
}
