/// An identity a provider has verified.
public struct VerifiedIdentity: Sendable, Equatable {
    public enum Email: Sendable, Equatable {
        /// The provider vouches that the person controls this address (may auto-link by email).
        case trusted(String)
        /// The provider verified the address, but it says nothing about other accounts that hold it (Apple's
        /// private relay addresses): reported as verified, never used to link accounts by email.
        case verifiedNotForLinking(String)
        /// The address is informational only; it never links accounts by itself.
        case untrusted(String)

        public var address: String {
            switch self { case .trusted(let a), .verifiedNotForLinking(let a), .untrusted(let a): return a }
        }
        /// May link accounts by email (the linking engine's question).
        public var isTrusted: Bool { if case .trusted = self { return true } else { return false } }
        /// The provider checked that the person receives mail at the address (what `emailVerified` reports).
        public var isVerified: Bool {
            switch self { case .trusted, .verifiedNotForLinking: return true; case .untrusted: return false }
        }
    }

    public var providerId: ProviderID
    /// The provider's stable subject (Firebase `rawId`).
    public var subject: String
    public var email: Email?
    public var displayName: String?
    public var photoUrl: String?
    public var screenName: String?
    /// A phone number the provider holds for this person, in E.164 (Telegram's OpenID Connect `phone_number`).
    /// Kept with the identity (`providerUserInfo[].phoneNumber`); never the account's phone number and never
    /// used to link accounts: only the phone provider proves a number.
    public var phoneNumber: String?
    /// JSON object text for the `rawUserInfo` response field.
    public var rawUserInfo: String?
    /// Provider credential fields echoed to the client (`oauthIdToken`, `oauthAccessToken`, ...).
    public var echoedCredential: [String: String]
    /// Secrets to keep sealed with the identity (e.g. Apple's refresh token).
    public var secrets: [String: String]

    public init(providerId: ProviderID, subject: String, email: Email? = nil, displayName: String? = nil,
                photoUrl: String? = nil, screenName: String? = nil, phoneNumber: String? = nil, rawUserInfo: String? = nil,
                echoedCredential: [String: String] = [:], secrets: [String: String] = [:]) {
        self.providerId = providerId
        self.subject = subject
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.screenName = screenName
        self.phoneNumber = phoneNumber
        self.rawUserInfo = rawUserInfo
        self.echoedCredential = echoedCredential
        self.secrets = secrets
    }
}
