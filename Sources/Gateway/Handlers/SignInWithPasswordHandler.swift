import AuthCore
import ProviderKit
import Storage
import WireFormats

/// `accounts:signInWithPassword` (legacy `verifyPassword`).
///
/// Work is the same whether or not the account exists (a decoy hash is checked for unknown addresses), and
/// wrong passwords are counted per address, so guessing is throttled with `TOO_MANY_ATTEMPTS_TRY_LATER`
/// even for addresses that have no account. A hash made with older parameters is upgraded after a
/// successful sign-in.
enum SignInWithPasswordHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        let email = services.email
        let accounts = try services.email.requireAccounts()
        guard accounts.isEnabled else { throw AuthError(.passwordLoginDisabled) }
        let address = try EmailAddress.require(try body.string("email"))
        guard let password = try body.string("password") else { throw AuthError(.missingPassword) }
        let privacy = try await email.privacy.isOn()
        guard try await accounts.beginPasswordAttempt(account: address) else { throw AuthError(.tooManyAttemptsTryLater) }
        let found = try await services.store.read { tx in try tx.user(email: address) }
        if !privacy {
            guard let found else { throw AuthError(.emailNotFound) }
            guard !found.disabled else { throw AuthError.userDisabled }
        }
        guard try await accounts.verify(password, against: found?.password), let user = found else {
            throw AuthError(privacy ? .invalidLoginCredentials : .invalidPassword)
        }
        try await accounts.passwordAttemptSucceeded(account: address)
        guard !user.disabled else { throw AuthError.userDisabled }
        let rehashed = try await user.password.asyncMap { credential in
            accounts.needsRehash(credential) ? try await accounts.hash(password) : nil
        } ?? nil
        let now = services.time.nowMilliseconds
        let (signedIn, identities) = try await services.store.write { tx -> (UserRecord, [ProviderIdentity]) in
            guard var current = try tx.user(localId: user.localId) else { throw AuthError(privacy ? .invalidLoginCredentials : .emailNotFound) }
            current.lastLoginAt = now
            if let rehashed, current.password == user.password { current.password = rehashed }
            try tx.updateUser(current)
            return (current, try tx.identities(localId: current.localId))
        }
        if rehashed != nil { services.logger.info("password hash upgraded", [("user.id", .string(user.localId))]) }
        let issued = try await services.sessions.startSession(for: signedIn, identities: identities,
                                                              signInProvider: ProviderID.password.rawValue)
        var response: JSONObject = ["kind": "identitytoolkit#VerifyPasswordResponse", "registered": true,
                                    "localId": .string(signedIn.localId), "email": .string(address)]
        response.set("displayName", signedIn.displayName)
        response.set("profilePicture", signedIn.photoUrl)
        SessionFields.add(issued, to: &response)
        return .json(response)
    }
}
