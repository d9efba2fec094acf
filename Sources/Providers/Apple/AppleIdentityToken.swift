import AuthCore
import WireFormats

/// The claims of a verified Apple identity token that the gateway uses.
public struct AppleIdentityToken: Sendable, Equatable {
    public var subject: String
    public var audience: String
    public var issuedAt: Int64
    public var expiresAt: Int64
    public var email: String?
    public var emailVerified: Bool
    /// A Hide My Email relay address (`…@privaterelay.appleid.com`).
    public var isPrivateEmail: Bool
    /// All claims, for `rawUserInfo`.
    public var claims: JSONObject

    /// Domain of Apple's private relay addresses.
    public static let relayDomain = "privaterelay.appleid.com"

    init(subject: String, audience: String, issuedAt: Int64, expiresAt: Int64, claims: JSONObject) {
        self.subject = subject
        self.audience = audience
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.claims = claims
        let email = claims["email"]?.stringValue.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        self.email = email
        self.emailVerified = Self.flag(claims["email_verified"])
        self.isPrivateEmail = Self.flag(claims["is_private_email"]) || email?.hasSuffix("@" + Self.relayDomain) == true
    }

    /// Apple sends booleans both as JSON booleans and as the strings "true"/"false".
    static func flag(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let b)?: return b
        case .string(let s)?: return s.lowercased() == "true"
        default: return false
        }
    }
}
