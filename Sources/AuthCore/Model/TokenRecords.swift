/// A refresh token as stored: only the SHA-256 of the opaque token, never the token itself.
public struct RefreshTokenRecord: Sendable, Equatable, Codable {
    /// SHA-256 of the token string's UTF-8 bytes (32 bytes).
    public var tokenHash: [UInt8]
    public var localId: String
    /// `firebase.sign_in_provider` to repeat in refreshed ID tokens.
    public var signInProvider: String
    public var tenantId: String?
    /// Extra claims (custom-token claims) as JSON object text, repeated in refreshed ID tokens.
    public var extraClaims: String?
    /// Seconds since the epoch; compared with the user's `validSince`.
    public var issuedAt: Int64

    public init(tokenHash: [UInt8], localId: String, signInProvider: String, tenantId: String? = nil,
                extraClaims: String? = nil, issuedAt: Int64) {
        self.tokenHash = tokenHash
        self.localId = localId
        self.signInProvider = signInProvider
        self.tenantId = tenantId
        self.extraClaims = extraClaims
        self.issuedAt = issuedAt
    }
}

/// A token-signing key. The private key is sealed under the master key; the public parts are kept in clear
/// so that publishing keys never needs the master key.
public struct SigningKeyRecord: Sendable, Equatable, Codable {
    public var kid: String
    /// `RS256`.
    public var algorithm: String
    public var sealedPrivateKey: [UInt8]
    public var publicKeyPEM: String
    public var certificatePEM: String
    /// Seconds since the epoch.
    public var createdAt: Int64
    /// Seconds since the epoch from which the key signs new tokens. A rotated-in key is published at once
    /// but activates one key-cache max-age later, so verifiers never meet an unknown `kid`.
    public var activatesAt: Int64
    /// Seconds since the epoch after which the key is no longer published (set when a newer key takes over:
    /// the newer key's activation plus the longest token lifetime plus the key-cache max-age).
    public var unpublishAt: Int64?

    public init(kid: String, algorithm: String, sealedPrivateKey: [UInt8], publicKeyPEM: String,
                certificatePEM: String, createdAt: Int64, activatesAt: Int64, unpublishAt: Int64? = nil) {
        self.kid = kid
        self.algorithm = algorithm
        self.sealedPrivateKey = sealedPrivateKey
        self.publicKeyPEM = publicKeyPEM
        self.certificatePEM = certificatePEM
        self.createdAt = createdAt
        self.activatesAt = activatesAt
        self.unpublishAt = unpublishAt
    }
}

/// A single-use, expiring secret (pending credential, nonce, out-of-band code, redirect session) stored by
/// the hash of its value. Taking it deletes it in the same transaction, so it can be used once.
public struct OneTimeTokenRecord: Sendable, Equatable, Codable {
    /// What the token is for, e.g. `pending`, `nonce`, `oob`.
    public var kind: String
    /// SHA-256 of the token value (or of the nonce).
    public var tokenHash: [UInt8]
    /// Kind-specific JSON text bound to the token.
    public var payload: String
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    /// Milliseconds since the epoch.
    public var expiresAt: Int64

    public init(kind: String, tokenHash: [UInt8], payload: String, createdAt: Int64, expiresAt: Int64) {
        self.kind = kind
        self.tokenHash = tokenHash
        self.payload = payload
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
