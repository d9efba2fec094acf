import AuthCore

/// Small record builders: only the fields a test cares about are arguments.
enum Fixture {
    static func user(
        _ localId: String, email: String? = nil, phone: String? = nil, password: Bool = false,
        createdAt: Int64 = 1_000
    ) -> UserRecord {
        UserRecord(
            localId: localId, email: email, phoneNumber: phone,
            password: password ? PasswordCredential(algorithm: "scrypt", parameters: "{}", hash: [1], salt: [2]) : nil,
            validSince: 1, createdAt: createdAt)
    }

    /// A user with every optional field set, to prove round trips lose nothing.
    static func completeUser(_ localId: String) -> UserRecord {
        UserRecord(
            localId: localId, email: "\(localId)@example.com", emailVerified: true, displayName: "Ada Lovelace",
            photoUrl: "https://example.com/p.png", phoneNumber: "+15550000\(localId.count)",
            password: PasswordCredential(
                algorithm: "scrypt", parameters: #"{"n":16384,"r":8,"p":1}"#, hash: [0, 1, 2, 255], salt: []),
            passwordUpdatedAt: 1_700_000_000_123, emailLinkSignin: true, disabled: true,
            customAttributes: #"{"admin":true}"#, validSince: 1_700_000_000, createdAt: 1_600_000_000_000,
            lastLoginAt: 1_700_000_001_000, lastRefreshAt: 1_700_000_002_000, tenantId: "tenant-ü",
            initialEmail: "first-\(localId)@example.com")
    }

    static func identity(
        _ providerId: String, _ federatedId: String, localId: String, email: String? = nil, linkedAt: Int64 = 10
    ) -> ProviderIdentity {
        ProviderIdentity(
            providerId: providerId, federatedId: federatedId, localId: localId, email: email, linkedAt: linkedAt)
    }

    static func refreshToken(_ value: String, localId: String, issuedAt: Int64 = 1_700_000_000) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: hash(value), localId: localId, signInProvider: "password", tenantId: "t",
            extraClaims: #"{"role":"x"}"#, issuedAt: issuedAt)
    }

    static func signingKey(_ kid: String, createdAt: Int64) -> SigningKeyRecord {
        SigningKeyRecord(
            kid: kid, algorithm: "RS256", sealedPrivateKey: hash(kid), publicKeyPEM: "PUBLIC \(kid)",
            certificatePEM: "CERT \(kid)", createdAt: createdAt, activatesAt: createdAt + 60)
    }

    static func oneTimeToken(_ value: String, kind: String = "oob", expiresAt: Int64 = 5_000) -> OneTimeTokenRecord {
        OneTimeTokenRecord(
            kind: kind, tokenHash: hash(value), payload: #"{"for":"\#(value)"}"#, createdAt: 1_000,
            expiresAt: expiresAt)
    }

    static func outboxItem(
        _ id: String, kind: String = "mail", nextAttemptAt: Int64 = 1_000, createdAt: Int64 = 500
    ) -> OutboxItem {
        OutboxItem(
            id: id, kind: kind, payload: #"{"to":"\#(id)@example.com"}"#, nextAttemptAt: nextAttemptAt,
            createdAt: createdAt)
    }

    /// A deterministic 32-byte digest standing in for SHA-256 (FNV-1a, four rounds): the store only needs
    /// distinct byte strings, not a cryptographic hash.
    static func hash(_ text: String) -> [UInt8] {
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        var digest: [UInt8] = []
        for round in 0..<4 {
            for byte in Array(text.utf8) + [UInt8(round)] {
                state ^= UInt64(byte)
                state &*= 0x0000_0100_0000_01b3
            }
            digest += withUnsafeBytes(of: state.bigEndian) { Array($0) }
        }
        return digest
    }
}
