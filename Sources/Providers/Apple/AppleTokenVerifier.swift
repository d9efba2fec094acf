import AuthCore
import Crypto
import WireFormats
import ProviderKit

/// Verifies Apple identity tokens: every check of Apple's and Firebase's rules, each failing with a
/// `CredentialRefusal` that names the check for the log and carries the Firebase error for the client
/// (`INVALID_IDP_RESPONSE : …`, `MISSING_OR_INVALID_NONCE : …`).
public struct AppleTokenVerifier: Sendable {
    /// Apple has signed with both issuers since June 2025.
    public static let issuers: Set = ["https://appleid.apple.com", "https://account.apple.com"]
    public static let duplicateNonceDetail = "Duplicate credential received. Please try again with a new credential."

    let configuration: AppleConfiguration
    let keys: AppleKeySet
    let ledger: any NonceLedger
    let time: any TimeSource

    public init(configuration: AppleConfiguration, keys: AppleKeySet, ledger: any NonceLedger, time: any TimeSource) {
        self.configuration = configuration
        self.keys = keys
        self.ledger = ledger
        self.time = time
    }

    /// Verifies `idToken` against `rawNonce` and consumes the nonce (a second use of the nonce fails).
    public func verify(_ idToken: String, rawNonce: String?) async throws -> AppleIdentityToken {
        let nonce = try Self.checkedRawNonce(rawNonce)
        let token = try await verifySignedClaims(idToken)
        guard let claim = token.claims["nonce"]?.stringValue else {
            throw Self.refusal(.nonce, .missingOrInvalidNonce,
                               "The ID token has no nonce claim; pass the SHA-256 hex of the raw nonce to Apple.")
        }
        let expected = SHA256.hexDigest(nonce)
        guard constantTimeEquals(Array(claim.utf8), Array(expected.utf8)) else {
            throw Self.refusal(.nonce, .missingOrInvalidNonce,
                               "The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
        }
        let forgetAt = (token.expiresAt + configuration.clockSkewSeconds) * 1000
        guard try await ledger.consume(SHA256.hash(nonce), expiresAt: forgetAt) else {
            throw Self.refusal(.replay, .missingOrInvalidNonce, Self.duplicateNonceDetail)
        }
        return token
    }

    /// The raw nonce must be sent and be 16–256 characters (Abrova's `INVALID_INPUT`).
    static func checkedRawNonce(_ rawNonce: String?) throws -> String {
        guard let rawNonce, !rawNonce.isEmpty else {
            throw refusal(.nonce, .missingOrInvalidNonce, "Nonce is missing in the request.")
        }
        guard (16...256).contains(rawNonce.count) else {
            throw refusal(.nonce, .missingOrInvalidNonce, "The raw nonce must be 16 to 256 characters.")
        }
        return rawNonce
    }

    /// Signature, issuer, audience and time checks (no nonce): shared with server-to-server notifications.
    func verifySignedClaims(_ compact: String) async throws -> AppleIdentityToken {
        let claims = try await verifiedPayload(compact, what: "id_token")
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw Self.refusal(.format, .invalidIdpResponse, "id_token has no subject")
        }
        let (audience, issuedAt, expiresAt) = try checkIssuerAudienceAndTime(claims, what: "id_token",
                                                                             maxAge: configuration.maxTokenAgeSeconds)
        return AppleIdentityToken(subject: subject, audience: audience, issuedAt: issuedAt, expiresAt: expiresAt,
                                  claims: claims)
    }

    /// The JWS payload as claims, after the RS256 signature check with the key Apple published under `kid`.
    func verifiedPayload(_ compact: String, what: String) async throws -> JSONObject {
        guard let jws = try? CompactJWS(parsing: compact) else {
            throw Self.refusal(.format, .invalidIdpResponse, "Unable to parse \(what): not a compact JWS")
        }
        guard jws.header.alg == "RS256" else {
            throw Self.refusal(.algorithm, .invalidIdpResponse, "\(what) must be signed with RS256, not \(jws.header.alg)")
        }
        guard let kid = jws.header.kid, !kid.isEmpty else {
            throw Self.refusal(.unknownKey, .invalidIdpResponse, "\(what) has no kid")
        }
        let key: RSAPublicKey
        do { key = try await keys.key(id: kid) } catch {
            switch error {
            case .unknownKey:
                throw Self.refusal(.unknownKey, .invalidIdpResponse, "\(what) was signed with a key Apple does not publish")
            case .unavailable:
                throw Self.refusal(.keyFetch, .invalidIdpResponse, "Apple's public keys could not be fetched; try again")
            }
        }
        guard jws.isSignatureValid(using: .rs256(key)) else {
            throw Self.refusal(.signature, .invalidIdpResponse, "\(what) signature is invalid")
        }
        guard case .object(let claims)? = try? JSONParser.parse(jws.payloadBytes) else {
            throw Self.refusal(.format, .invalidIdpResponse, "Unable to parse \(what): payload is not a JSON object")
        }
        return claims
    }

    /// `maxAge` nil skips the age check (notifications may be delivered late; their `exp` still bounds them).
    func checkIssuerAudienceAndTime(_ claims: JSONObject, what: String, maxAge: Int64?) throws -> (String, Int64, Int64) {
        guard let issuer = claims["iss"]?.stringValue, Self.issuers.contains(issuer) else {
            throw Self.refusal(.issuer, .invalidIdpResponse, "\(what) issuer is not Apple")
        }
        guard let audience = claims["aud"]?.stringValue, configuration.audiences.contains(audience) else {
            throw Self.refusal(.audience, .invalidIdpResponse, "\(what) audience is not a configured bundle ID or Services ID")
        }
        let now = time.nowSeconds
        let skew = configuration.clockSkewSeconds
        guard let expiresAt = claims["exp"]?.intValue, now < expiresAt + skew else {
            throw Self.refusal(.expiry, .invalidIdpResponse, "\(what) has expired")
        }
        guard let issuedAt = claims["iat"]?.intValue, issuedAt <= now + skew else {
            throw Self.refusal(.issuedAt, .invalidIdpResponse, "\(what) was issued in the future")
        }
        if let maxAge, now - issuedAt > maxAge {
            throw Self.refusal(.age, .invalidIdpResponse, "\(what) is older than \(maxAge / 60) minutes")
        }
        return (audience, issuedAt, expiresAt)
    }

    /// Apple refused the credential at `check`; the client sees `code` with `detail`.
    static func refusal(_ check: CredentialCheck, _ code: AuthError.Code, _ detail: String) -> CredentialRefusal {
        CredentialRefusal(.apple, check, AuthError(code, detail))
    }
}
