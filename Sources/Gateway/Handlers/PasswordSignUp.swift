import AuthCore
import ProviderKit
import Storage
import WireFormats

/// `accounts:signUp` with an email and password: a new password account, the upgrade of the signed-in
/// (typically anonymous) user given by `idToken` — which keeps its `localId` — or, for admins, an account
/// created without signing anyone in.
///
/// Adding a password through `idToken` is a sensitive change: a user who already has one must use
/// `accounts:update` (`PROVIDER_ALREADY_LINKED`), a non-anonymous user must have signed in recently, and a
/// changed email ends older sessions — otherwise a stolen long-lived token could take the account over.
enum PasswordSignUp {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        let email = services.email
        let accounts = try services.email.requireAccounts()
        let admin = context.caller.isAdmin && !body.has("idToken")
        if !admin { try accounts.admitSignUp(context.requestContext) }
        let address = try EmailAddress.require(try body.string("email"))
        let password = try accounts.checkPassword(try body.string("password"))
        let session = admin ? nil : try await body.string("idToken").asyncMap { try await services.sessions.authenticate(idToken: $0) }
        if let session {
            guard session.user.password == nil else { throw AuthError(.providerAlreadyLinked) }
            try RecentSignIn.require(session, windowSeconds: email.recentSignInSeconds, now: services.time.nowSeconds)
        }
        let credential = try await accounts.hash(password)
        let now = services.time.nowMilliseconds
        let user: UserRecord
        let identities: [ProviderIdentity]
        do {
            (user, identities) = try await services.store.write { tx -> (UserRecord, [ProviderIdentity]) in
                if let session {
                    guard var user = try tx.user(localId: session.user.localId) else { throw AuthError.userNotFound }
                    guard !user.disabled else { throw AuthError.userDisabled }
                    guard user.password == nil else { throw AuthError(.providerAlreadyLinked) }
                    if user.email != address {
                        user.emailVerified = false
                        try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
                    }
                    user.email = address
                    user.password = credential
                    user.passwordUpdatedAt = now
                    user.displayName = try body.string("displayName").map { try ProfileLimits.check($0, field: "displayName", limit: ProfileLimits.displayName) } ?? user.displayName
                    user.lastLoginAt = now
                    try tx.updateUser(user)
                    return (user, try tx.identities(localId: user.localId))
                }
                var user = UserRecord(localId: try body.string("localId") ?? UserIDs.generate(), email: address,
                                      displayName: try body.string("displayName").map { try ProfileLimits.check($0, field: "displayName", limit: ProfileLimits.displayName) }, password: credential,
                                      passwordUpdatedAt: now, validSince: now / 1000, createdAt: now,
                                      lastLoginAt: admin ? nil : now)
                if admin {
                    user.emailVerified = try body.bool("emailVerified") ?? false
                    user.photoUrl = try body.string("photoUrl")
                    user.disabled = try body.bool("disabled") ?? false
                }
                try tx.insertUser(user)
                return (user, [])
            }
        } catch StoreError.uniqueViolation(.email) {
            throw AuthError(.emailExists)
        } catch StoreError.uniqueViolation(.localId) {
            throw AuthError(.duplicateLocalId)
        }
        var response: JSONObject = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": .string(user.localId),
                                    "email": .string(address)]
        response.set("displayName", user.displayName)
        if !admin {
            let issued = try await services.sessions.startSession(for: user, identities: identities,
                                                                  signInProvider: ProviderID.password.rawValue)
            SessionFields.add(issued, to: &response)
        }
        return .json(response)
    }
}

/// The token fields every sign-in response carries (`expiresIn` is a string, as iOS expects).
enum SessionFields {
    static func add(_ issued: SessionService.Issued, to response: inout JSONObject) {
        response["idToken"] = .string(issued.idToken)
        response["refreshToken"] = .string(issued.refreshToken)
        response["expiresIn"] = .string(String(issued.expiresIn))
    }
}

extension Optional {
    /// `map` for an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
