import Crypto
import WireFormats

/// Checks a JWT a service account signed with its private key: a JWT-bearer grant assertion (RFC 7523) or a
/// custom token. Pure: the caller finds the account named by the unverified `iss` and passes it in, with the
/// clock; every failure is one case of `Failure`, which each endpoint maps to its own wire error.
///
/// The algorithm is pinned to RS256 (Google's service-account keys are RSA), never taken from the header.
enum ServiceAccountJWT {
    enum Failure: Error, Equatable {
        case malformed
        case algorithm(String)
        case unknownKey
        case badSignature
        case audience
        case subject
        case missingTimes
        case expired
        case issuedInFuture
        case lifetimeTooLong
    }

    struct Policy: Sendable {
        /// Accepted `aud` values (a string claim, compared exactly).
        var audiences: Set<String>
        /// Longest `exp - iat` accepted: Google issues assertions and custom tokens for at most an hour.
        var maxLifetimeSeconds: Int64 = 3600
        var clockSkewSeconds: Int64
        /// Custom tokens name the account in `sub` too; an assertion may omit it, but one naming someone else
        /// asks for domain-wide delegation, which the gateway does not do.
        var subjectRequired: Bool
    }

    /// A token split and decoded, not yet trusted.
    struct Unverified: Sendable {
        let jws: CompactJWS
        let claims: JSONObject
        /// The account the token claims to come from.
        var issuer: String? { claims["iss"]?.stringValue }
    }

    /// Splits and decodes `token`; one that is not RS256 (an unsigned `alg: none` token among them) is refused
    /// here, before anyone looks its issuer up.
    static func parse(_ token: String) throws(Failure) -> Unverified {
        guard let jws = try? CompactJWS(parsing: token),
              case .object(let claims)? = try? JSONParser.parse(jws.payloadBytes)
        else { throw .malformed }
        guard jws.header.alg == "RS256" else { throw .algorithm(jws.header.alg) }
        return Unverified(jws: jws, claims: claims)
    }

    /// Verifies `token` as signed by `account` under `policy` at `now` (seconds); returns its claims.
    static func verify(_ token: Unverified, account: ServiceAccount, policy: Policy,
                       now: Int64) throws(Failure) -> JSONObject {
        guard token.jws.header.alg == "RS256" else { throw .algorithm(token.jws.header.alg) }
        let keys = account.verificationKeys(kid: token.jws.header.kid)
        guard !keys.isEmpty else { throw .unknownKey }
        guard keys.contains(where: { token.jws.isSignatureValid(using: .rs256($0)) }) else { throw .badSignature }
        let claims = token.claims
        guard let audience = claims["aud"]?.stringValue, policy.audiences.contains(audience) else { throw .audience }
        switch claims["sub"]?.stringValue {
        case nil where policy.subjectRequired: throw .subject
        case let subject? where subject != account.clientEmail: throw .subject
        default: break
        }
        guard let issuedAt = claims["iat"]?.intValue, let expiresAt = claims["exp"]?.intValue else { throw .missingTimes }
        guard expiresAt > now - policy.clockSkewSeconds else { throw .expired }
        guard issuedAt <= now + policy.clockSkewSeconds else { throw .issuedInFuture }
        guard expiresAt - issuedAt <= policy.maxLifetimeSeconds else { throw .lifetimeTooLong }
        return claims
    }
}
