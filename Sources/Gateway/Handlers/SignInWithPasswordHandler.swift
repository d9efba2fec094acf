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
        // The password was checked against `user` as read before the KDF: the session is stored only if the
        // account still has that password (else the answer a wrong password gets), is not disabled, and had no
        // revocation meanwhile.
        let refusals = SignInRecheck.Refusals(deleted: AuthError(privacy ? .invalidLoginCredentials : .emailNotFound),
                                              passwordChanged: AuthError(privacy ? .invalidLoginCredentials : .invalidPassword))
        let started = try await services.sessions.startSession(
            for: user, signInProvider: ProviderID.password.rawValue, refusals: refusals
        ) { current in
            current.lastLoginAt = now
            if let rehashed { current.password = rehashed }
        }
        if rehashed != nil { services.logger.info("password hash upgraded", [("user.id", .string(user.localId))]) }
        let (issued, signedIn) = (started.issued, started.user)
        var response: JSONObject = ["kind": "identitytoolkit#VerifyPasswordResponse", "registered": true,
                                    "localId": .string(signedIn.localId), "email": .string(address)]
        response.set("displayName", signedIn.displayName)
        response.set("profilePicture", signedIn.photoUrl)
        SessionFields.add(issued, to: &response)
        return .json(response)
    }
}
