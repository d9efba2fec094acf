import AuthCore
import ProviderKit

/// The email and password part of `accounts:update`, validated and hashed before the update's transaction
/// (hashing happens on the KDF pool, never inside a database transaction).
///
/// A user changing their own email or password must have signed in recently; either change ends every
/// older session (`SessionRevocation`) and the caller gets fresh tokens.
struct CredentialChange: Sendable {
    var email: String?
    var password: PasswordCredential?

    var revokesTokens: Bool { email != nil || password != nil }

    static func prepare(_ services: GatewayServices, _ body: RequestBody,
                        session: SessionService.Authenticated?) async throws -> CredentialChange {
        guard body.has("email") || body.has("password") else { return CredentialChange() }
        let settings = services.email
        let accounts = try services.email.requireAccounts()
        if let session {
            try RecentSignIn.require(session, windowSeconds: settings.recentSignInSeconds,
                                     now: services.time.nowSeconds)
        }
        var change = CredentialChange()
        if let text = try body.string("email") {
            guard let address = EmailAddress.canonical(text) else { throw AuthError(.invalidEmail) }
            change.email = address
        }
        if body.has("password") {
            guard accounts.isEnabled else { throw AuthError(.operationNotAllowed) }
            let password = try accounts.checkPassword(try body.string("password"))
            change.password = try await accounts.hash(password)
        }
        return change
    }

    /// The password part; the email goes through the linking engine (`AccountUpdate`), which refuses an
    /// address another account holds.
    func applyPassword(to user: inout UserRecord, nowMilliseconds now: Int64) {
        if let password {
            user.password = password
            user.passwordUpdatedAt = now
        }
    }
}
