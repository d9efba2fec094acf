import AuthCore

/// What a request brings to an account: every way one user's credentials meet another account's goes through the
/// one engine, so the rules (one account per email, takeover of an unproven address, one identity per provider)
/// cannot differ between federated sign-in, email links, password sign-up and email changes.
public enum LinkingCredential: Sendable, Equatable {
    /// An identity a provider verified (`signInWithIdp`).
    case federated(VerifiedIdentity)
    /// An email-link sign-in: opening the link proved the mailbox of `address`.
    case emailLink(address: String)
    /// A password sign-up with `address` (with an ID token: the upgrade of the signed-in, often anonymous, user).
    case password(address: String)
    /// A new address for the signed-in user; `proven` when a code sent to it was used (verify-and-change).
    case emailChange(address: String, proven: Bool)
    /// A phone number proven by a one-time code (or by a temporary proof from an earlier conflict). With
    /// `answerConflictWithProof`, a number held by another account is answered in the body with a temporary
    /// proof the client may sign in with (Firebase's first answer); otherwise with `PHONE_NUMBER_EXISTS`.
    case phone(number: String, answerConflictWithProof: Bool)

    /// The address the credential carries, lower-cased.
    public var email: String? {
        switch self {
        case .federated(let identity): identity.email?.address.lowercased()
        case .emailLink(let address), .password(let address), .emailChange(let address, _): address.lowercased()
        case .phone: nil
        }
    }

    /// Whether the credential proves the person controls `email` (so it may take over an account whose address
    /// was never proven, and may link by email).
    public var provesEmail: Bool {
        switch self {
        case .federated(let identity): identity.email?.isTrusted ?? false
        case .emailLink: true
        case .password, .phone: false
        case .emailChange(_, let proven): proven
        }
    }
}

/// What the account-linking engine decides. Pure data: the gateway applies it in one store transaction, and a
/// unique-constraint violation there means another request won a race, so the gateway takes a fresh snapshot
/// and decides again.
public enum LinkingDecision: Sendable, Equatable {
    /// The credential already belongs to this user: sign them in.
    case signIn(localId: String)
    /// No account has the credential (or a matching email): create one.
    case createUser
    /// Attach the credential to this existing user (linking, auto-linking by a proven email, an upgrade or an
    /// email change). With `takeOverUnverifiedEmail` the account's address was never proven and the credential
    /// proves it: whatever someone else may have attached (password, phone, identities, sessions) goes.
    case link(localId: String, takeOverUnverifiedEmail: Bool)
    /// The user already has exactly this identity: nothing to change.
    case alreadyLinked(localId: String)
    /// An account with the same email exists but the provider does not vouch for the email: the client must
    /// sign in to that account first (Firebase `needConfirmation`).
    case needConfirmation(localId: String, verifiedProviders: [String])
    /// Refused.
    case conflict(LinkingConflict)
}

/// A refusal and how Firebase answers it. Closed: every conflict the engine can produce, and whether it is a
/// plain 400 or the credential-already-in-use answer (200 with `errorMessage` and a pending credential the
/// client can sign in with), decided here rather than by each handler.
public struct LinkingConflict: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The identity belongs to another user.
        case federatedUserIdAlreadyLinked
        /// Another account has the email.
        case emailExists
        /// The user already has an identity of this provider (or a password).
        case providerAlreadyLinked
        /// The signed-in user no longer exists.
        case userNotFound
        /// Reauthentication with an identity nobody has (SDKs report a user mismatch).
        case emailNotFound
        /// Another account has the phone number.
        case phoneNumberExists
    }

    public enum Answer: Sendable, Equatable {
        /// 400 with the code.
        case error
        /// 200 with `errorMessage` and a pending credential (the client asked with `returnIdpCredential`); for a
        /// phone number, 200 with a temporary proof.
        case errorMessageWithPendingCredential
    }

    public let reason: Reason
    public let answer: Answer

    public init(_ reason: Reason, answer: Answer = .error) {
        self.reason = reason
        self.answer = answer
    }

    /// The Firebase code for the reason.
    public var code: AuthError.Code {
        switch reason {
        case .federatedUserIdAlreadyLinked: .federatedUserIdAlreadyLinked
        case .emailExists: .emailExists
        case .providerAlreadyLinked: .providerAlreadyLinked
        case .userNotFound: .userNotFound
        case .emailNotFound: .emailNotFound
        case .phoneNumberExists: .phoneNumberExists
        }
    }
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
    /// Attach to the signed-in user (the request carried an ID token, or an admin named the user).
    case link(localId: String)
}

/// The accounts relevant to one decision, read from the store in one snapshot.
public struct LinkingSnapshot: Sendable, Equatable {
    public struct Account: Sendable, Equatable {
        public var localId: String
        public var email: String?
        public var emailVerified: Bool
        public var hasPassword: Bool
        /// Linked federated identities as (providerId, subject).
        public var identities: [ProviderKey]

        public init(localId: String, email: String?, emailVerified: Bool, hasPassword: Bool = false,
                    identities: [ProviderKey]) {
            self.localId = localId
            self.email = email
            self.emailVerified = emailVerified
            self.hasPassword = hasPassword
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

    /// The account that owns the federated identity, if any.
    public var owner: Account?
    /// The signed-in account when linking.
    public var current: Account?
    /// The account whose top-level email equals the credential's email, if any.
    public var emailHolder: Account?
    /// The account whose phone number is the credential's number, if any.
    public var phoneHolder: Account?

    public init(owner: Account? = nil, current: Account? = nil, emailHolder: Account? = nil, phoneHolder: Account? = nil) {
        self.owner = owner
        self.current = current
        self.emailHolder = emailHolder
        self.phoneHolder = phoneHolder
    }
}
