import AuthCore
import Storage

extension PostgresTransaction {
    // MARK: Refresh tokens

    func insertRefreshToken(_ token: RefreshTokenRecord) throws {
        try runGuarded(
            "INSERT INTO refresh_tokens (\(TokenRows.refreshColumns)) VALUES (\(Placeholders.list(6)))",
            TokenRows.values(token))
    }

    func refreshToken(localId: String, hash: [UInt8]) throws -> RefreshTokenRecord? {
        try run("SELECT \(TokenRows.refreshColumns) FROM refresh_tokens WHERE local_id = $1 AND token_hash = $2",
                [.init(localId), .init(hash)]).rows(TokenRows.refreshToken).first
    }

    /// One DELETE: it sees the rows committed when it starts (READ COMMITTED), never rows inserted after it.
    func revokeRefreshTokens(localId: String, issuedAtOrBefore seconds: Int64?) throws -> Int {
        try requireWritable()
        guard let seconds else {
            return try run("DELETE FROM refresh_tokens WHERE local_id = $1", [.init(localId)]).changedRows
        }
        return try run(
            "DELETE FROM refresh_tokens WHERE local_id = $1 AND issued_at <= $2", [.init(localId), .init(seconds)]
        ).changedRows
    }

    // MARK: Signing keys (in a write transaction, read and written under one lock)

    func signingKeys() throws -> [SigningKeyRecord] {
        try run("SELECT \(TokenRows.keyColumns) FROM signing_keys ORDER BY created_at, kid", [], after: Self.lockSigningKeys, [])
            .rows(TokenRows.signingKey)
    }

    /// `ON CONFLICT DO NOTHING`: the table has no other constraint, so "no row inserted" means a duplicate
    /// kid, and no savepoint is needed.
    func insertSigningKey(_ key: SigningKeyRecord) throws {
        try requireWritable()
        let inserted = try run(
            "INSERT INTO signing_keys (\(TokenRows.keyColumns)) VALUES (\(Placeholders.list(8))) ON CONFLICT DO NOTHING",
            TokenRows.values(key), after: Self.lockSigningKeys, [])
        guard inserted.changedRows > 0 else { throw StoreError.uniqueViolation(.signingKey) }
    }

    func updateSigningKey(_ key: SigningKeyRecord) throws {
        try requireWritable()
        let values = TokenRows.values(key)
        let changed = try run(
            """
            UPDATE signing_keys SET algorithm = $1, sealed_private_key = $2, public_key_pem = $3, certificate_pem = $4,
            created_at = $5, activates_at = $6, unpublish_at = $7 WHERE kid = $8
            """,
            Array(values.dropFirst()) + [values[0]], after: Self.lockSigningKeys, []
        ).changedRows
        guard changed > 0 else { throw StoreError.notFound }
    }

    // MARK: Single-use tokens

    func insertOneTimeToken(_ token: OneTimeTokenRecord) throws {
        try requireWritable()
        let inserted = try run(
            "INSERT INTO one_time_tokens (\(TokenRows.oneTimeColumns)) VALUES (\(Placeholders.list(5))) ON CONFLICT DO NOTHING",
            TokenRows.values(token))
        guard inserted.changedRows > 0 else { throw StoreError.uniqueViolation(.oneTimeToken) }
    }

    func oneTimeToken(kind: String, hash: [UInt8]) throws -> OneTimeTokenRecord? {
        try run(
            "SELECT \(TokenRows.oneTimeColumns) FROM one_time_tokens WHERE kind = $1 AND token_hash = $2",
            [.init(kind), .init(hash)]
        ).rows(TokenRows.oneTimeToken).first
    }

    /// `DELETE ... RETURNING`: of two transactions taking the same token, the second waits for the first
    /// and then finds the row gone.
    func takeOneTimeToken(kind: String, hash: [UInt8]) throws -> OneTimeTokenRecord? {
        try requireWritable()
        return try run(
            "DELETE FROM one_time_tokens WHERE kind = $1 AND token_hash = $2 RETURNING \(TokenRows.oneTimeColumns)",
            [.init(kind), .init(hash)]
        ).rows(TokenRows.oneTimeToken).first
    }

    func deleteExpiredOneTimeTokens(before ms: Int64) throws -> Int {
        try requireWritable()
        return try run("DELETE FROM one_time_tokens WHERE expires_at < $1", [.init(ms)]).changedRows
    }
}
