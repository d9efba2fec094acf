import AuthCore

/// Firebase's "requires recent login": changing the email or password and deleting the account need an
/// ID token whose `auth_time` is recent, so a stolen long-lived session cannot take the account over.
/// Anonymous sessions are exempt (they have nothing to re-authenticate with).
enum RecentSignIn {
    static func require(_ session: SessionService.Authenticated, windowSeconds: Int64, now: Int64) throws {
        guard windowSeconds > 0, session.token.signInProvider != ProviderID.anonymous.rawValue else { return }
        if now - session.token.authTime > windowSeconds { throw AuthError(.credentialTooOldLoginAgain) }
    }
}
