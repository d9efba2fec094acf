import AuthCore

/// Capability of the email provider (Firebase's `password` provider) that the gateway's core flows use:
/// password sign-up and sign-in, password changes and resets, email links and action mail.
///
/// Those flows are Firebase API operations, so their wire handlers live in the gateway; the rules they apply
/// (policy, limits, hashing, templates) are the plugin's, reached only through this protocol, so the gateway
/// never names a concrete provider type.
public protocol PasswordAccounts: CredentialProvider {
    /// Passwordless sign-in by email link, a separate switch in Firebase (`OPERATION_NOT_ALLOWED` when off).
    var emailLinkEnabled: Bool { get }
    /// Email and password changes and account deletion need a sign-in at most this long ago (0: never).
    var recentSignInSeconds: Int64 { get }
    /// Firebase's email enumeration protection until an admin changes it through the project config.
    var improvedEmailPrivacyDefault: Bool { get }
    /// Where action links point when not the gateway's own `/__/auth/action` (a page of the app's).
    var actionUrl: String? { get }

    /// The password if the policy accepts it: `MISSING_PASSWORD` for nil, `WEAK_PASSWORD : why` otherwise.
    func checkPassword(_ password: String?) throws(AuthError) -> String
    /// One more password sign-up from this client, or `TOO_MANY_ATTEMPTS_TRY_LATER`.
    func admitSignUp(_ context: RequestContext) throws(AuthError)
    /// One more email from this client to this address, or `TOO_MANY_ATTEMPTS_TRY_LATER`.
    /// Counted where every gateway instance sees it, so it is asynchronous.
    func admitSend(to email: String, _ context: RequestContext) async throws
    /// Reserves a password attempt for `account` (the email) before the KDF runs; false while it is locked.
    func beginPasswordAttempt(account: String) async throws -> Bool
    /// The reserved attempt had the right password: it does not count as a failure.
    func passwordAttemptSucceeded(account: String) async throws

    /// A new credential, computed off the request path; `TOO_MANY_ATTEMPTS_TRY_LATER` when the KDF queue is full.
    func hash(_ password: String) async throws -> PasswordCredential
    /// Checks `password` (against a decoy when `credential` is nil, so unknown accounts cost the same work).
    func verify(_ password: String, against credential: PasswordCredential?) async throws -> Bool
    /// Whether a matching credential should be rehashed with the current parameters.
    func needsRehash(_ credential: PasswordCredential) -> Bool

    /// The action email for a code: subject, text and HTML in the language of `locale`.
    func composeActionMail(_ type: OobRequestType, locale: String?, link: String, email: String,
                           newEmail: String?) -> ComposedMail
}

extension PasswordAccounts {
    /// `OPERATION_NOT_ALLOWED` unless email-link sign-in is on.
    public func requireEmailLinkEnabled() throws(AuthError) {
        guard emailLinkEnabled else { throw AuthError(.operationNotAllowed) }
    }
}

/// A message ready for MIME: a subject, a plain-text part and an HTML part.
public struct ComposedMail: Sendable, Equatable {
    public var subject: String
    public var text: String
    public var html: String

    public init(subject: String, text: String, html: String) {
        self.subject = subject
        self.text = text
        self.html = html
    }
}
