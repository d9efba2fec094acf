import AuthCore
import Crypto
import Storage
import WireFormats

/// Issues and checks sessions: ID tokens (stateless, RS256) and refresh tokens (opaque, sealed to this
/// project, stored as hashes; see `RefreshTokens`).
///
/// Revocation ends refresh tokens by removing their rows at the instant of the change
/// (`SessionRevocation`), so a refresh token is refused from then on even when it was issued in the same
/// second. ID tokens carry only Firebase's claims and are checked against `validSince`, in whole seconds as
/// Firebase does.
struct SessionService: Sendable {
    let store: any UserStore
    let signer: IDTokenSigner
    let sealer: Sealer
    let time: any TimeSource
    /// Whether `gh1.` refresh tokens (issued before tokens named their project) belong to this gateway's
    /// project; see `UnboundRefreshTokens`.
    let acceptsUnboundTokens: Bool

    var projectId: String { signer.settings.projectId }

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
        let token = try RefreshTokens.seal(localId: localId, projectId: projectId, sealer: sealer)
        let record = RefreshTokenRecord(tokenHash: RefreshTokens.hash(token), localId: localId,
                                        signInProvider: signInProvider, tenantId: nil, extraClaims: extraClaims,
                                        issuedAt: time.nowSeconds)
        return (token, record)
    }

    /// A session just stored, with the user (and identities) as that transaction left them.
    struct Started: Sendable {
        let issued: Issued
        let user: UserRecord
        let identities: [ProviderIdentity]
    }

    /// Creates a session for a user who just signed in, in one write transaction: reads the user again and
    /// refuses (`SignInRecheck`) if the account no longer holds what the sign-in was checked against —
    /// `checked`, and `identities` when given — then applies `update` (the sign-in's own bookkeeping, such as
    /// `lastLoginAt`), stores a new refresh token and mints an ID token. A password change, disable or
    /// revocation committed after the check therefore never leaves a session behind.
    func startSession(for checked: UserRecord, identities: [ProviderIdentity]? = nil, signInProvider: String,
                      refusals: SignInRecheck.Refusals = .session,
                      update: @escaping @Sendable (inout UserRecord) -> Void = { _ in }) async throws -> Started {
        let (refreshToken, record) = try newRefreshToken(localId: checked.localId, signInProvider: signInProvider)
        let (user, stored) = try await store.write { tx -> (UserRecord, [ProviderIdentity]) in
            let current = try tx.user(localId: checked.localId)
            let currentIdentities = try tx.identities(localId: checked.localId)
            try SignInRecheck.check(current, since: checked, currentIdentities: currentIdentities,
                                    checkedIdentities: identities, refusals)
            guard var user = current else { throw refusals.deleted }
            let before = user
            update(&user)
            if user != before { try tx.updateUser(user) }
            try tx.insertRefreshToken(record)
            return (user, currentIdentities)
        }
        let issued = try issued(refreshToken: refreshToken, for: user, identities: stored, signInProvider: signInProvider)
        return Started(issued: issued, user: user, identities: stored)
    }

    /// The session for a refresh token the caller already stored (in the transaction that created the user or
    /// made the change), with a fresh ID token.
    func issued(refreshToken: String, for user: UserRecord, identities: [ProviderIdentity],
                signInProvider: String, extraClaims: String? = nil) throws -> Issued {
        let idToken = try idToken(for: user, identities: identities, signInProvider: signInProvider,
                                  extraClaims: extraClaims)
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
    /// A token this gateway cannot open (forged, or another project's) is `INVALID_REFRESH_TOKEN` without a
    /// database read; otherwise `RefreshDecision` judges it against the stored row and the user.
    func refresh(_ refreshToken: String) async throws -> (Issued, UserRecord) {
        guard let localId = owner(of: refreshToken) else { throw AuthError.invalidRefreshToken }
        let hash = RefreshTokens.hash(refreshToken)
        let now = time.nowMilliseconds
        let (record, user, identities) = try await store.write { tx in
            // The user first: where writers run concurrently that read waits for a change of the user in
            // progress (PostgreSQL locks the row), so the token's row, read next, is gone if that change revoked it.
            let current = try tx.user(localId: localId)
            let (record, approved) = try RefreshDecision.check(
                record: try tx.refreshToken(localId: localId, hash: hash), user: current)
            var user = approved
            user.lastRefreshAt = now
            try tx.recordRefresh(localId: localId, at: now)
            return (record, user, try tx.identities(localId: localId))
        }
        let idToken = try idToken(for: user, identities: identities, signInProvider: record.signInProvider,
                                  extraClaims: record.extraClaims)
        return (Issued(idToken: idToken, refreshToken: refreshToken, expiresIn: lifetime), user)
    }

    /// The localId a refresh token was sealed for, if this gateway issued it for its own project.
    func owner(of token: String) -> String? {
        switch RefreshTokens.open(token, projectId: projectId, sealer: sealer) {
        case .bound(let localId)?: localId
        case .unbound(let localId)? where acceptsUnboundTokens: localId
        default: nil
        }
    }

    static func object(_ text: String) -> JSONObject? {
        (try? JSONParser.parse(text))?.objectValue
    }
}
