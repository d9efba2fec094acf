/// A provider's Firebase id (`apple.com`, `facebook.com`, `anonymous`, `password`, ...).
///
/// A struct rather than an enum so each provider module adds its own constant in an extension and adding a
/// provider touches no central list.
public struct ProviderID: Hashable, Sendable, RawRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
}

extension ProviderID {
    /// Anonymous sessions (`firebase.sign_in_provider` and top-level `provider_id` claim).
    public static let anonymous: ProviderID = "anonymous"
    /// Email and password, and email link (Firebase reports both as `password`).
    public static let password: ProviderID = "password"
    /// Sessions minted from a custom token.
    public static let custom: ProviderID = "custom"
    /// Phone numbers proven with a one-time code (`accounts:signInWithPhoneNumber`).
    public static let phone: ProviderID = "phone"
}
