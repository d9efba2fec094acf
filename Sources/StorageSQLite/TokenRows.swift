import AuthCore
import Storage

/// How refresh tokens, signing keys and one-time tokens map onto their tables.
enum TokenRows {
    static let refreshColumns = "token_hash, local_id, sign_in_provider, tenant_id, extra_claims, issued_at"

    static let insertRefresh = "INSERT INTO refresh_tokens (\(refreshColumns)) VALUES (?, ?, ?, ?, ?, ?)"
    static let selectRefreshByKey =
        "SELECT \(refreshColumns) FROM refresh_tokens WHERE local_id = ? AND token_hash = ?"

    static func values(_ token: RefreshTokenRecord) -> [SQLValue] {
        [
            .init(token.tokenHash), .init(token.localId), .init(token.signInProvider), .init(token.tenantId),
            .init(token.extraClaims), .init(token.issuedAt),
        ]
    }

    static func refreshToken(_ row: Row) throws(StoreError) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: try row.blob(0), localId: try row.text(1), signInProvider: try row.text(2),
            tenantId: row.optionalText(3), extraClaims: row.optionalText(4), issuedAt: try row.integer(5))
    }

    static let keyColumns = """
        kid, algorithm, sealed_private_key, public_key_pem, certificate_pem, created_at, activates_at, unpublish_at
        """

    static func values(_ key: SigningKeyRecord) -> [SQLValue] {
        [
            .init(key.kid), .init(key.algorithm), .init(key.sealedPrivateKey), .init(key.publicKeyPEM),
            .init(key.certificatePEM), .init(key.createdAt), .init(key.activatesAt), .init(key.unpublishAt),
        ]
    }

    static func signingKey(_ row: Row) throws(StoreError) -> SigningKeyRecord {
        SigningKeyRecord(
            kid: try row.text(0), algorithm: try row.text(1), sealedPrivateKey: try row.blob(2),
            publicKeyPEM: try row.text(3), certificatePEM: try row.text(4), createdAt: try row.integer(5),
            activatesAt: try row.integer(6), unpublishAt: row.optionalInteger(7))
    }

    static let oneTimeColumns = "kind, token_hash, payload, created_at, expires_at"

    static func values(_ token: OneTimeTokenRecord) -> [SQLValue] {
        [.init(token.kind), .init(token.tokenHash), .init(token.payload), .init(token.createdAt), .init(token.expiresAt)]
    }

    static func oneTimeToken(_ row: Row) throws(StoreError) -> OneTimeTokenRecord {
        OneTimeTokenRecord(
            kind: try row.text(0), tokenHash: try row.blob(1), payload: try row.text(2),
            createdAt: try row.integer(3), expiresAt: try row.integer(4))
    }
}
