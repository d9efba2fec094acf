import AuthCore
import ProviderKit

/// Why a token was refused, as the pure checks see it. Finer than `CredentialCheck` (a missing kid and an
/// unknown one are both `unknown_key` in the log, but the client is told which), and turned into the refusal
/// a client and the log see in exactly one place, `TokenPolicy.refusal(for:)`.
enum TokenFailure: Error, Equatable {
    case notCompactJWS
    case algorithmNotAllowed(String)
    case algorithmDoesNotMatchKey(token: String, key: SignatureAlgorithm)
    case missingKeyId
    case unknownKey
    case keysUnavailable
    case badSignature
    case payloadNotObject
    case missingSubject
    case issuer
    case audience
    case expired
    case issuedInFuture
    case notYetValid
    case tooOld(maxAgeSeconds: Int64)
    case nonceMissing
    case nonceLength(ClosedRange<Int>)
    case nonceClaimMissing
    case nonceMismatch
    case replay
}

extension TokenPolicy {
    /// The one mapping from a failed check to what the client is told (Firebase's code and a detail naming the
    /// check) and what the log records. The wording is Apple's, which clients and tests already rely on, with
    /// the provider's and token's names filled in.
    func refusal(for failure: TokenFailure) -> CredentialRefusal {
        let what = tokenName
        let (check, detail): (CredentialCheck, String) = switch failure {
        case .notCompactJWS: (.format, "Unable to parse \(what): not a compact JWS")
        case .payloadNotObject: (.format, "Unable to parse \(what): payload is not a JSON object")
        case .missingSubject: (.format, "\(what) has no subject")
        case .algorithmNotAllowed(let alg):
            (.algorithm, "\(what) must be signed with \(algorithms.sorted().map(\.rawValue).joined(separator: " or ")), not \(alg)")
        case .algorithmDoesNotMatchKey(let alg, let key):
            (.algorithm, "\(what) names \(alg) but its key is for \(key.rawValue)")
        case .missingKeyId: (.unknownKey, "\(what) has no kid")
        case .unknownKey: (.unknownKey, "\(what) was signed with a key \(providerName) does not publish")
        case .keysUnavailable: (.keyFetch, "\(providerName)'s public keys could not be fetched; try again")
        case .badSignature: (.signature, "\(what) signature is invalid")
        case .issuer: (.issuer, "\(what) issuer is not \(providerName)")
        case .audience: (.audience, "\(what) audience is not \(audienceDescription)")
        case .expired: (.expiry, "\(what) has expired")
        case .issuedInFuture: (.issuedAt, "\(what) was issued in the future")
        case .notYetValid: (.issuedAt, "\(what) is not valid yet")
        case .tooOld(let maxAge): (.age, "\(what) is older than \(Self.duration(maxAge))")
        case .nonceMissing: (.nonce, "Nonce is missing in the request.")
        case .nonceLength(let range):
            (.nonce, "The raw nonce must be \(range.lowerBound) to \(range.upperBound) characters.")
        case .nonceClaimMissing:
            (.nonce, "The ID token has no nonce claim; pass the SHA-256 hex of the raw nonce to \(providerName).")
        case .nonceMismatch:
            (.nonce, "The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
        case .replay: (.replay, "Duplicate credential received. Please try again with a new credential.")
        }
        // Firebase reports every nonce problem, replay included, as MISSING_OR_INVALID_NONCE; the rest of a
        // token's flaws as INVALID_IDP_RESPONSE.
        let code: AuthError.Code = check == .nonce || check == .replay ? .missingOrInvalidNonce : .invalidIdpResponse
        return CredentialRefusal(provider, check, AuthError(code, detail))
    }

    /// "10 minutes" for whole minutes (Apple's wording), "90 seconds" otherwise.
    static func duration(_ seconds: Int64) -> String {
        guard seconds % 60 == 0 else { return "\(seconds) seconds" }
        return seconds == 60 ? "1 minute" : "\(seconds / 60) minutes"
    }
}
