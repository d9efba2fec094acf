import Foundation

/// The payload of a JWT, read without checking the signature: the client only reads its own tokens' claims
/// (expiry, sign-in provider, custom claims); the gateway and your backend are the ones that verify them.
enum JWTClaims {
    static func decode(_ token: String) -> [String: Any]? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let data = Base64URL.decode(segments[1]) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    static func date(_ claims: [String: Any], _ key: String) -> Date? {
        (claims[key] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
    }
}
