import AuthCore

/// What the account-linking engine decides for one verified identity. Pure data: the gateway applies it in
/// one store transaction, and a unique-constraint violation there means another request won a race, so the
/// gateway takes a fresh snapshot and decides again.
public enum LinkingDecision: Sendable, Equatable {
    /// The identity already belongs to this user: sign them in.
    case signIn(localId: String)
    /// No account has the identity (or a matching email): create one.
    case createUser
    /// Attach the identity to this existing user (linking, or auto-linking by a trusted email).
    case link(localId: String, takeOverUnverifiedEmail: Bool)
    /// The user already has exactly this identity: nothing to change.
    case alreadyLinked(localId: String)
    /// An account with the same email exists but the provider does not vouch for the email: the client must
    /// sign in to that account first (Firebase `needConfirmation`).
    case needConfirmation(localId: String, verifiedProviders: [String])
    /// Refused, with the Firebase code to return.
    case refuse(AuthError.Code)
}

/// The settings that change linking rules.
public struct LinkingPolicy: Sendable, Equatable {
    /// Firebase's "one account per email address" (default on).
    public var oneAccountPerEmail: Bool
    public init(oneAccountPerEmail: Bool = true) { self.oneAccountPerEmail = oneAccountPerEmail }
}

/// What the request asks for.
public enum LinkingIntent: Sendable, Equatable {
    /// Sign in (or up); `autoCreate: false` (reauthentication) never creates a user.
    case signIn(autoCreate: Bool)
    /// Link to the signed-in user (the request carried an ID token).
    case link(localId: String)
}

/// The accounts relevant to one decision, read from the store in one snapshot.
public struct LinkingSnapshot: Sendable, Equatable {
    public struct Account: Sendable, Equatable {
        public var localId: String
        public var email: String?
        public var emailVerified: Bool
        /// Linked federated identities as (providerId, subject).
        public var identities: [ProviderKey]

        public init(localId: String, email: String?, emailVerified: Bool, identities: [ProviderKey]) {
            self.localId = localId
            self.email = email
            self.emailVerified = emailVerified
            self.identities = identities
        }
    }

    public struct ProviderKey: Sendable, Equatable, Hashable {
        public var providerId: String
        public var subject: String
        public init(_ providerId: String, _ subject: String) {
            self.providerId = providerId
            self.subject = subject
        }
    }

    /// The account that owns the identity, if any.
    public var owner: Account?
    /// The signed-in account when linking.
    public var current: Account?
    /// The account whose top-level email equals the identity's email, if any.
    public var emailHolder: Account?

    public init(owner: Account? = nil, current: Account? = nil, emailHolder: Account? = nil) {
        self.owner = owner
        self.current = current
        self.emailHolder = emailHolder
    }
}
