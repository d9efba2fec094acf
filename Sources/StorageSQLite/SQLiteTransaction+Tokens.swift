import AuthCore
import Storage

extension SQLiteTransaction {
    // MARK: Refresh tokens

    func insertRefreshToken(_ token: RefreshTokenRecord) throws {
        try connection.execute(TokenRows.insertRefresh, TokenRows.values(token))
    }

    func refreshToken(localId: String, hash: [UInt8]) throws -> RefreshTokenRecord? {
        try connection.queryFirst(TokenRows.selectRefreshByKey, [.init(localId), .init(hash)], TokenRows.refreshToken)
    }

    func revokeRefreshTokens(localId: String, issuedAtOrBefore seconds: Int64?) throws -> Int {
        guard let seconds else {
            return try connection.execute("DELETE FROM refresh_tokens WHERE local_id = ?", [.init(localId)])
        }
        return try connection.execute(
            "DELETE FROM refresh_tokens WHERE local_id = ? AND issued_at <= ?", [.init(localId), .init(seconds)])
    }

    // MARK: Signing keys

    func signingKeys() throws -> [SigningKeyRecord] {
        try connection.query(
            "SELECT \(TokenRows.keyColumns) FROM signing_keys ORDER BY created_at, kid", [], TokenRows.signingKey)
    }

    func insertSigningKey(_ key: SigningKeyRecord) throws {
        try connection.execute(
            "INSERT INTO signing_keys (\(TokenRows.keyColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", TokenRows.values(key))
    }

    func updateSigningKey(_ key: SigningKeyRecord) throws {
        let values = TokenRows.values(key)
        let changed = try connection.execute(
            """
            UPDATE signing_keys SET algorithm = ?, sealed_private_key = ?, public_key_pem = ?, certificate_pem = ?,
            created_at = ?, activates_at = ?, unpublish_at = ? WHERE kid = ?
            """,
            Array(values.dropFirst()) + [values[0]])
        guard changed > 0 else { throw StoreError.notFound }
    }

    // MARK: Single-use tokens

    func insertOneTimeToken(_ token: OneTimeTokenRecord) throws {
        try connection.execute(
            "INSERT INTO one_time_tokens (\(TokenRows.oneTimeColumns)) VALUES (?, ?, ?, ?, ?)", TokenRows.values(token))
    }

    func oneTimeToken(kind: String, hash: [UInt8]) throws -> OneTimeTokenRecord? {
        try connection.queryFirst(
            "SELECT \(TokenRows.oneTimeColumns) FROM one_time_tokens WHERE kind = ? AND token_hash = ?",
            [.init(kind), .init(hash)], TokenRows.oneTimeToken)
    }

    /// One `DELETE ... RETURNING` statement: the row is read and removed atomically (PostgreSQL has the
    /// same statement, where a concurrent second taker finds the row gone).
    func takeOneTimeToken(kind: String, hash: [UInt8]) throws -> OneTimeTokenRecord? {
        try connection.query(
            "DELETE FROM one_time_tokens WHERE kind = ? AND token_hash = ? RETURNING \(TokenRows.oneTimeColumns)",
            [.init(kind), .init(hash)], TokenRows.oneTimeToken
        ).first
    }

    func deleteExpiredOneTimeTokens(before ms: Int64) throws -> Int {
        try connection.execute("DELETE FROM one_time_tokens WHERE expires_at < ?", [.init(ms)])
    }

    // MARK: Settings

    func setting(_ key: String) throws -> String? {
        try connection.queryFirst("SELECT value FROM settings WHERE key = ?", [.init(key)]) {
            row throws(StoreError) in try row.text(0)
        }
    }

    func setSetting(_ key: String, value: String?) throws {
        guard let value else {
            try connection.execute("DELETE FROM settings WHERE key = ?", [.init(key)])
            return
        }
        try connection.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.init(key), .init(value)])
    }
}
