import AuthCore
import Storage
import WireFormats

/// `accounts:signInWithCustomToken` (legacy `verifyCustomToken`): a backend vouches for a uid by signing a
/// custom token; the user with that uid is signed in, and created on first use. The session's ID tokens say
/// `firebase.sign_in_provider: "custom"` and carry the token's developer claims on top of the account's custom
/// claims, also after a refresh (the claims are stored with the refresh token).
enum CustomTokenSignIn {
    static let signInProvider = "custom"

    struct Request: Sendable {
        let token: String

        init(_ body: RequestBody) throws {
            _ = try body.bool("returnSecureToken")
            guard let token = try body.string("token"), !token.isEmpty else { throw AuthError(.missingCustomToken) }
            // No tenants here: a request naming one is for another configuration.
            if let tenant = try body.string("tenantId"), !tenant.isEmpty { throw AuthError(.tenantIdMismatch) }
            self.token = token
        }
    }

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let request = try Request(context.body)
        let verifier = CustomTokenVerifier(registry: services.serviceAccounts, emulator: services.configuration.emulator,
                                           clockSkewSeconds: services.configuration.clockSkewSeconds)
        let claims = try CustomTokenClaims(try await verifier.verify(request.token, now: services.time.nowSeconds))
        let now = services.time.nowMilliseconds
        let (refreshToken, record) = try services.sessions.newRefreshToken(
            localId: claims.uid, signInProvider: signInProvider, extraClaims: claims.developerClaims)
        let (user, identities, isNew) = try await services.store.write { tx -> (UserRecord, [ProviderIdentity], Bool) in
            let (user, isNew) = try signedIn(claims.uid, nowMilliseconds: now, tx)
            try tx.insertRefreshToken(record)
            return (user, try tx.identities(localId: user.localId), isNew)
        }
        var response: JSONObject = ["kind": "identitytoolkit#VerifyCustomTokenResponse", "isNewUser": .bool(isNew)]
        SessionFields.add(try services.sessions.issued(refreshToken: refreshToken, for: user, identities: identities,
                                                       signInProvider: signInProvider, extraClaims: claims.developerClaims),
                          to: &response)
        return .json(response)
    }

    /// The user signing in, with this sign-in recorded: the existing account (`USER_DISABLED` when disabled) or a
    /// new one. A concurrent first sign-in of the same uid loses the insert to the other and signs in to the
    /// account it created.
    static func signedIn(_ uid: String, nowMilliseconds now: Int64, _ tx: any StoreTransaction) throws -> (UserRecord, Bool) {
        func signIn(_ existing: UserRecord) throws -> (UserRecord, Bool) {
            guard !existing.disabled else { throw AuthError.userDisabled }
            var user = existing
            user.lastLoginAt = now
            try tx.updateUser(user)
            return (user, false)
        }
        if let existing = try tx.user(localId: uid) { return try signIn(existing) }
        let user = UserRecord(localId: uid, validSince: now / 1000, createdAt: now, lastLoginAt: now, lastRefreshAt: now)
        do {
            try tx.insertUser(user)
            return (user, true)
        } catch StoreError.uniqueViolation(.localId) {
            guard let existing = try tx.user(localId: uid) else { throw StoreError.uniqueViolation(.localId) }
            return try signIn(existing)
        }
    }
}
