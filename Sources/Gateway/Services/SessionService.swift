import AuthCore
import Crypto
import Storage

/// Issues and checks sessions: ID tokens (stateless, RS256) and refresh tokens (opaque, stored as hashes).
///
/// A refresh token is `gh1.` + base64url(AES-GCM seal of 32 random bytes ‖ localId). The store keeps only
/// its SHA-256; the sealed localId lets a token whose user was deleted be answered `USER_NOT_FOUND`
/// (as Firebase does) although the row went with the user, while a forged token cannot be opened and is
/// `INVALID_REFRESH_TOKEN`.
struct SessionService: Sendable {
    let store: any UserStore
    let signer: IDTokenSigner
    let sealer: Sealer
    let time: any TimeSource

    static let refreshPurpose = "gatehouse.refresh-token.v1"

    struct Issued: Sendable {
        let idToken: String
        let refreshToken: String
        let expiresIn: Int64
    }

    /// A caller proven by an ID token, with the user's current record.
    struct Authenticated: Sendable {
        let token: IDTokenSigner.Verified
        let user: UserRecord
        let identities: [ProviderIdentity]
    }

    var lifetime: Int64 { signer.settings.idTokenLifetime }

    /// A new refresh token and the record to store for it (the caller stores it in its own transaction, so a
    /// user and its first session are created atomically).
    func newRefreshToken(localId: String, signInProvider: String, extraClaims: String? = nil) throws -> (String, RefreshTokenRecord) {
        let plaintext = SecureRandom.bytes(count: 32) + Array(localId.utf8)
        let token = RefreshTokens.prefix + Base64URL.encode(try sealer.seal(plaintext, purpose: Self.refreshPurpose))
        let record = RefreshTokenRecord(tokenHash: RefreshTokens.hash(token), localId: localId,
                                        signInProvider: signInProvider, tenantId: nil, extraClaims: extraClaims,
                                        issuedAt: time.nowSeconds)
        return (token, record)
    }

    /// Creates a session for a user who just signed in: stores a new refresh token and mints an ID token.
    func startSession(for user: UserRecord, identities: [ProviderIdentity], signInProvider: String) async throws -> Issued {
        let (refreshToken, record) = try newRefreshToken(localId: user.localId, signInProvider: signInProvider)
        try await store.write { tx in try tx.insertRefreshToken(record) }
        let idToken = try idToken(for: user, identities: identities, signInProvider: signInProvider, extraClaims: nil)
        return Issued(idToken: idToken, refreshToken: refreshToken, expiresIn: lifetime)
    }

    /// Mints the ID token for a user whose session is being created or refreshed.
    func idToken(for user: UserRecord, identities: [ProviderIdentity], signInProvider: String,
                 extraClaims: String?) throws -> String {
        let claims = IDTokenClaims.make(
            user: user, identities: identities, signInProvider: signInProvider, issuer: signer.settings.issuer,
            audience: signer.settings.projectId, issuedAt: time.nowSeconds, lifetime: lifetime,
            customClaims: user.customAttributes.flatMap(Self.object), extraClaims: extraClaims.flatMap(Self.object))
        return try signer.sign(claims)
    }

    /// Verifies an ID token and loads its user: `USER_NOT_FOUND`, `USER_DISABLED`, or `TOKEN_EXPIRED` when the
    /// token was issued before the user's `validSince` (revocation).
    func authenticate(idToken: String?) async throws -> Authenticated {
        guard let idToken, !idToken.isEmpty else { throw AuthError.missingIdToken }
        let token = try signer.verify(idToken)
        let (user, identities) = try await store.read { tx in
            (try tx.user(localId: token.localId), try tx.identities(localId: token.localId))
        }
        guard let user else { throw AuthError.userNotFound }
        guard !user.disabled else { throw AuthError.userDisabled }
        guard token.issuedAt >= user.validSince else { throw AuthError.tokenExpired }
        return Authenticated(token: token, user: user, identities: identities)
    }

    /// Exchanges a refresh token for a new ID token (the refresh token itself does not rotate, as in Firebase).
    func refresh(_ refreshToken: String) async throws -> (Issued, UserRecord) {
        let hash = RefreshTokens.hash(refreshToken)
        let now = time.nowMilliseconds
        let found: (RefreshTokenRecord, UserRecord, [ProviderIdentity])? = try await store.write { tx in
            guard let record = try tx.refreshToken(hash: hash), var user = try tx.user(localId: record.localId) else {
                return nil
            }
            let identities = try tx.identities(localId: user.localId)
            if !user.disabled && record.issuedAt >= user.validSince {
                user.lastRefreshAt = now
                try tx.updateUser(user)
            }
            return (record, user, identities)
        }
        guard let (record, user, identities) = found else {
            // Not stored: either a session of a deleted user (we can open it) or not ours at all.
            throw sealedLocalId(of: refreshToken) != nil ? AuthError.userNotFound : AuthError.invalidRefreshToken
        }
        guard !user.disabled else { throw AuthError.userDisabled }
        guard record.issuedAt >= user.validSince else { throw AuthError.tokenExpired }
        let idToken = try idToken(for: user, identities: identities, signInProvider: record.signInProvider,
                                  extraClaims: record.extraClaims)
        return (Issued(idToken: idToken, refreshToken: refreshToken, expiresIn: lifetime), user)
    }

    /// The localId sealed inside a refresh token we issued, or nil for anything else.
    func sealedLocalId(of token: String) -> String? {
        guard token.hasPrefix(RefreshTokens.prefix),
              let sealed = Base64URL.decode(String(token.dropFirst(RefreshTokens.prefix.count))),
              let plaintext = try? sealer.open(sealed, purpose: Self.refreshPurpose), plaintext.count > 32
        else { return nil }
        return String(validating: plaintext[32...], as: UTF8.self)
    }

    static func object(_ text: String) -> JSONObject? {
        (try? JSONParser.parse(text))?.objectValue
    }
}
