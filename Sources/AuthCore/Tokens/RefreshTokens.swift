import Crypto

/// Opaque refresh tokens: 256 random bits, base64url. Only their SHA-256 is stored, so a leaked database
/// does not leak usable sessions.
public enum RefreshTokens {
    /// Prefix that lets operators recognise our tokens in logs and support tickets (never logged whole).
    public static let prefix = "gh1."

    public static func generate() -> (token: String, hash: [UInt8]) {
        let token = prefix + SecureRandom.token(byteCount: 32)
        return (token, hash(token))
    }

    public static func hash(_ token: String) -> [UInt8] { SHA256.hash(token) }

    /// Cheap shape check before touching the store.
    public static func isWellFormed(_ token: String) -> Bool {
        token.hasPrefix(prefix) && token.utf8.count == prefix.utf8.count + 43
    }
}
