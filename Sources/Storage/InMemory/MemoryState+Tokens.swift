import AuthCore

extension MemoryState {
    // MARK: Refresh tokens

    mutating func insertRefreshToken(_ token: RefreshTokenRecord) throws(StoreError) {
        let key = RefreshTokenKey(of: token)
        guard refreshTokens[key] == nil else { throw .uniqueViolation(.refreshToken) }
        guard users[token.localId] != nil else { throw .notFound }
        refreshTokens[key] = token
    }

    mutating func revokeRefreshTokens(localId: String, issuedAtOrBefore seconds: Int64?) -> Int {
        let before = refreshTokens.count
        refreshTokens = refreshTokens.filter { _, token in
            token.localId != localId || seconds.map { token.issuedAt > $0 } == true
        }
        return before - refreshTokens.count
    }

    // MARK: Signing keys

    func orderedSigningKeys() -> [SigningKeyRecord] {
        signingKeys.values.sorted { a, b in
            a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.kid.precedesInByteOrder(b.kid)
        }
    }

    mutating func insertSigningKey(_ key: SigningKeyRecord) throws(StoreError) {
        guard signingKeys[key.kid] == nil else { throw .uniqueViolation(.signingKey) }
        signingKeys[key.kid] = key
    }

    mutating func updateSigningKey(_ key: SigningKeyRecord) throws(StoreError) {
        guard signingKeys[key.kid] != nil else { throw .notFound }
        signingKeys[key.kid] = key
    }

    // MARK: Single-use tokens

    mutating func insertOneTimeToken(_ token: OneTimeTokenRecord) throws(StoreError) {
        let key = OneTimeKey(kind: token.kind, tokenHash: token.tokenHash)
        guard oneTimeTokens[key] == nil else { throw .uniqueViolation(.oneTimeToken) }
        oneTimeTokens[key] = token
    }

    mutating func deleteExpiredOneTimeTokens(before ms: Int64) -> Int {
        let before = oneTimeTokens.count
        oneTimeTokens = oneTimeTokens.filter { $0.value.expiresAt >= ms }
        return before - oneTimeTokens.count
    }
}
