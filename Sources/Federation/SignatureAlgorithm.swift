import Crypto

/// The JWS algorithms a provider may pin. Only asymmetric ones exist here on purpose: an identity provider's
/// token is checked with a key it *publishes*, so HS256 (a shared secret) and `none` have no place, and a
/// token naming them is refused before any key is looked up.
public enum SignatureAlgorithm: String, Sendable, CaseIterable, Comparable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 (Apple, Facebook Limited Login, most OpenID providers).
    case rs256 = "RS256"
    /// ECDSA on P-256 with SHA-256.
    case es256 = "ES256"

    /// The algorithm a published key verifies. It comes from the key's type (and curve), never from a token.
    public init(of key: VerificationKey) {
        switch key {
        case .rs256: self = .rs256
        case .es256: self = .es256
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where a verifier gets the public key a token names in its `kid`.
///
/// A protocol so the same verifier serves a fixed JWKS URL (`JWKSCache`: Apple, Facebook, Telegram) and a
/// JWKS found through discovery (`DiscoveredKeys`: generic OpenID Connect), and so tests can hand in keys.
public protocol SigningKeySource: Sendable {
    /// The key published under `kid`. Never a fallback: a `kid` the provider does not publish is refused.
    func key(id kid: String) async throws(KeyLookupFailure) -> VerificationKey
}

/// Why no key could be returned.
public enum KeyLookupFailure: Error, Equatable, Sendable {
    /// The provider's current set (fresh, or fetched too recently to ask again) has no key with this id.
    case unknownKey
    /// The provider's keys could not be fetched, and no cached key with this id was available.
    case unavailable
}
