/// Whether a sign-in may still store its session, decided in the transaction that stores it.
///
/// A sign-in checks its credential against the account as it was read (a password against the stored hash, an
/// account that is not disabled, the identity that names it) and stores the refresh token later, after the
/// slow part (the password KDF, the linking transaction). A change landing in between must not leave a session
/// behind: taken in some order, either the sign-in came first, and the change (a password change, a revocation)
/// would have ended its session, or the change came first, and the sign-in must answer as it would have then.
/// So the session is stored only if the account still holds what the sign-in relied on. Pure, so every
/// refusal is tested without a store.
public enum SignInRecheck {
    /// The answers that depend on the kind of sign-in; a disabled account is always `USER_DISABLED`, and any
    /// other change (`validSince`, the email, an identity gone) is `TOKEN_EXPIRED`: sign in again.
    public struct Refusals: Sendable {
        /// The account is gone.
        public var deleted: AuthError
        /// The password the sign-in was checked against was replaced or removed.
        public var passwordChanged: AuthError

        public init(deleted: AuthError, passwordChanged: AuthError) {
            self.deleted = deleted
            self.passwordChanged = passwordChanged
        }

        /// For sign-ins that did not check a password (federated, email link, phone): a deleted account is
        /// `USER_NOT_FOUND`; a new password ended every session, so `TOKEN_EXPIRED`.
        public static let session = Refusals(deleted: .userNotFound, passwordChanged: .tokenExpired)
    }

    /// - Parameters:
    ///   - current: the user as read in the transaction that stores the session; nil once deleted.
    ///   - checked: the user the sign-in was checked against (or, after a linking transaction, the user it wrote).
    ///   - currentIdentities, checkedIdentities: the user's identities, when the sign-in relied on them.
    ///
    /// What others may add meanwhile does not matter (another identity linked by a concurrent sign-in, an email
    /// filled in where there was none): taken after that change, the sign-in would have succeeded all the same.
    public static func check(_ current: UserRecord?, since checked: UserRecord,
                             currentIdentities: [ProviderIdentity]? = nil, checkedIdentities: [ProviderIdentity]? = nil,
                             _ refusals: Refusals) throws(AuthError) {
        guard let current else { throw refusals.deleted }
        guard !current.disabled else { throw .userDisabled }
        guard current.password == checked.password else { throw refusals.passwordChanged }
        // `validSince` is in whole seconds, so a revocation in the same second as the one before leaves it as it
        // was; the changes that revoke also change what is compared next (the email, the identities of a takeover).
        guard current.validSince == checked.validSince, checked.email == nil || current.email == checked.email else {
            throw .tokenExpired
        }
        if let currentIdentities, let checkedIdentities,
           !Set(checkedIdentities.map(Key.init)).isSubset(of: currentIdentities.map(Key.init)) {
            throw .tokenExpired
        }
    }

    private struct Key: Hashable {
        let providerId: String
        let federatedId: String

        init(_ identity: ProviderIdentity) {
            providerId = identity.providerId
            federatedId = identity.federatedId
        }
    }
}
