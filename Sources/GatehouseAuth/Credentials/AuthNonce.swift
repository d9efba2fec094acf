/// A random raw nonce and its SHA-256 hex, for providers whose ID tokens carry a hashed nonce (Sign in with
/// Apple, Facebook Limited Login, Telegram and other OpenID Connect providers).
///
/// Give `sha256` to the provider's SDK (`ASAuthorizationAppleIDRequest.nonce`), keep `raw`, and pass `raw` in
/// the credential: the gateway checks that the token's nonce is its SHA-256, and accepts each nonce once.
public struct AuthNonce: Sendable, Equatable {
    public let raw: String
    public let sha256: String

    /// Characters of a raw nonce: letters, digits and `-._` (URL- and form-safe).
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._")

    /// `length` characters from the system's cryptographically secure generator (`SystemRandomNumberGenerator`).
    public init(length: Int = 32) {
        precondition(length > 0, "a nonce needs at least one character")
        var generator = SystemRandomNumberGenerator()
        let raw = String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator)! })
        self.init(raw: raw)
    }

    /// A nonce you made yourself.
    public init(raw: String) {
        self.raw = raw
        sha256 = Self.sha256Hex(raw)
    }

    /// Lowercase hex SHA-256 of the UTF-8 bytes of `text`.
    public static func sha256Hex(_ text: String) -> String {
        SHA256.hex(text)
    }
}
