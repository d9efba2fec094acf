import AuthCore
import ProviderAnonymous
import Storage
import WireFormats
import ProviderKit

/// `accounts:signUp` (legacy `signupNewUser`): anonymous accounts here; email and password sign-up (and the
/// upgrade of an anonymous user) is `PasswordSignUp`.
enum SignUpHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        // Firebase always returns tokens to clients; the flag is still type-checked like any known field.
        _ = try body.bool("returnSecureToken")
        if body.has("localId") && !context.caller.isAdmin { throw AuthError(.unexpectedParameter, "User ID") }
        if body.has("email") || body.has("password") || body.has("idToken") {
            return try await PasswordSignUp.handle(services, context)
        }
        if !context.caller.isAdmin {
            guard let anonymous = services.providers.provider(.anonymous, as: (any CredentialFreeSignUp).self) else {
                throw AuthError(.adminOnlyOperation)
            }
            try anonymous.admitSignUp(context.requestContext)
        }
        let now = services.time.nowMilliseconds
        let requestedId = try body.string("localId")
        // A generated id colliding is astronomically unlikely, but the store is the arbiter: retry once.
        for _ in 0..<3 {
            let localId = requestedId ?? UserIDs.generate()
            let signsIn = !context.caller.isAdmin
            let user = UserRecord(localId: localId, validSince: now / 1000, createdAt: now,
                                  lastLoginAt: signsIn ? now : nil, lastRefreshAt: signsIn ? now : nil)
            let (refreshToken, record) = try services.sessions.newRefreshToken(
                localId: localId, signInProvider: ProviderID.anonymous.rawValue)
            do {
                try await services.store.write { tx in
                    try tx.insertUser(user)
                    if !context.caller.isAdmin { try tx.insertRefreshToken(record) }
                }
            } catch StoreError.uniqueViolation(.localId) {
                if requestedId != nil { throw AuthError(.duplicateLocalId) }
                continue
            }
            var response: JSONObject = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": .string(localId)]
            // Admin sign-up creates the account without signing anyone in (as Firebase).
            if !context.caller.isAdmin {
                let idToken = try services.sessions.idToken(for: user, identities: [],
                                                            signInProvider: ProviderID.anonymous.rawValue,
                                                            extraClaims: nil)
                response["idToken"] = .string(idToken)
                response["refreshToken"] = .string(refreshToken)
                response["expiresIn"] = .string(String(services.sessions.lifetime))
            }
            return .json(response)
        }
        throw StoreError.unavailable("could not allocate a user id")
    }
}
