import AuthCore
import WireFormats

/// Which claims hold what. Standard OpenID Connect names by default; a provider with its own vocabulary (Entra's
/// `oid` as the stable id, a `mail` claim, a `phone` claim) is mapped here instead of in code.
public struct ClaimNames: Sendable, Equatable {
    public var subject: String
    public var email: String
    public var emailVerified: String
    public var displayName: String
    public var photoUrl: String
    /// Shown to the client in `rawUserInfo` as `phone_number` (an IdP's phone never becomes the account's
    /// phone number: that is the phone provider's, as in Firebase).
    public var phoneNumber: String

    public init(subject: String = "sub", email: String = "email", emailVerified: String = "email_verified",
                displayName: String = "name", photoUrl: String = "picture", phoneNumber: String = "phone_number") {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.phoneNumber = phoneNumber
    }

    /// The config keys and the fields they set.
    static var keys: [(key: String, path: WritableKeyPath<ClaimNames, String>)] {
        [("subject", \.subject), ("email", \.email), ("emailVerified", \.emailVerified), ("displayName", \.displayName),
         ("photoUrl", \.photoUrl), ("phoneNumber", \.phoneNumber)]
    }

    func problem(at path: String) -> String? {
        for (key, keyPath) in Self.keys where self[keyPath: keyPath].isEmpty || self[keyPath: keyPath].count > 100 {
            return "\(path).\(key) must be a claim name of 1-100 characters"
        }
        return nil
    }
}

/// Whether a provider's email may link accounts by address. Off by default: most identity providers let users
/// type any address and some "verify" it loosely, so an address from them proves nothing about other accounts
/// holding it (the user gets `needConfirmation` and links by signing in with the existing method instead).
public struct EmailLinking: Sendable, Equatable {
    /// Verified addresses link accounts.
    public var verifiedEmails: Bool
    /// When non-empty, only verified addresses in these domains link (Google: gmail.com, whose mailboxes it owns).
    public var domains: [String]
    /// A claim naming the domain the provider manages the account for (Google's `hd` for Workspace accounts): a
    /// verified address in that domain links even outside `domains`, since the provider is the domain's mail host.
    public var hostedDomainClaim: String?

    public init(verifiedEmails: Bool = false, domains: [String] = [], hostedDomainClaim: String? = nil) {
        self.verifiedEmails = verifiedEmails
        self.domains = domains.map { $0.lowercased() }
        self.hostedDomainClaim = hostedDomainClaim
    }

    /// The address with its trust, from what the provider said (pure).
    func email(_ address: String?, verified: Bool, claims: JSONObject) -> VerifiedIdentity.Email? {
        guard let address = address?.lowercased(), !address.isEmpty else { return nil }
        guard verified else { return .untrusted(address) }
        guard verifiedEmails, let at = address.lastIndex(of: "@") else { return .verifiedNotForLinking(address) }
        let domain = String(address[address.index(after: at)...])
        if domains.isEmpty || domains.contains(domain) { return .trusted(address) }
        if let claim = hostedDomainClaim, claims[claim]?.stringValue?.lowercased() == domain { return .trusted(address) }
        return .verifiedNotForLinking(address)
    }
}

/// Turns a provider's claims (from an ID token or UserInfo) into the identity the gateway links.
struct ClaimMapping: Sendable {
    let providerId: ProviderID
    let names: ClaimNames
    let emailLinking: EmailLinking

    /// The subject under the mapped claim: a non-empty string, or a number written out (some providers number
    /// their users).
    func subject(in claims: JSONObject) -> String? {
        switch claims[names.subject] {
        case .string(let text)? where !text.isEmpty: return text
        case .int(let number)?: return String(number)
        default: return nil
        }
    }

    func identity(subject: String, claims: JSONObject, echoed: [String: String]) -> VerifiedIdentity {
        let text = { (name: String) in claims[name]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
        let email = emailLinking.email(text(names.email), verified: Self.flag(claims[names.emailVerified]), claims: claims)
        var raw = claims
        if names.phoneNumber != "phone_number", let phone = text(names.phoneNumber) { raw["phone_number"] = .string(phone) }
        return VerifiedIdentity(providerId: providerId, subject: subject, email: email, displayName: text(names.displayName),
                                photoUrl: text(names.photoUrl), rawUserInfo: JSONSerializer.string(.object(raw)),
                                echoedCredential: echoed)
    }

    /// Providers send booleans as JSON booleans or as the strings "true"/"false" (Google's token-info endpoint).
    static func flag(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag)?: return flag
        case .string(let text)?: return text.lowercased() == "true"
        default: return false
        }
    }
}
