import AuthCore
import Crypto
import ProviderKit
import WireFormats

/// A verified `signed_request`, the form field Facebook posts to the deauthorize and data-deletion callbacks:
/// `base64url(signature) "." base64url(payload)`, the signature being HMAC-SHA256 with the app secret over the
/// *encoded* payload.
public struct SignedRequest: Sendable, Equatable {
    /// The app-scoped user id (the same id `debug_token` gives, the identity's federated id).
    public var userId: String
    /// Seconds.
    public var issuedAt: Int64
    public var payload: JSONObject

    /// Facebook's requests are a few hundred bytes; anything far larger is not one, and is refused before any
    /// work is spent on it.
    static let maxLength = 8_192

    public enum Failure: Error, Equatable {
        /// Not two base64url parts, payload not a JSON object, no `user_id` or `issued_at`.
        case malformed(String)
        case badSignature
        /// `algorithm` is not HMAC-SHA256.
        case algorithm(String)
        /// `issued_at` lies in the future (beyond the clock skew).
        case issuedInFuture
        /// `issued_at` is older than the accepted age.
        case tooOld
    }

    /// Verifies in this order: shape → signature (constant time, before the payload is read) → payload →
    /// algorithm → `user_id` → `issued_at` not in the future and at most `maxAgeSeconds` old.
    public static func verify(_ text: String, appSecret: String, now: Int64, maxAgeSeconds: Int64,
                              clockSkewSeconds: Int64) throws(Failure) -> SignedRequest {
        guard text.utf8.count <= maxLength else { throw .malformed("signed_request is too long") }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let signature = Base64URL.decode(String(parts[0])), !parts[1].isEmpty else {
            throw .malformed("signed_request is not <signature>.<payload> in base64url")
        }
        let expected = HMACSHA256.authenticate(key: Array(appSecret.utf8), message: Array(parts[1].utf8))
        guard constantTimeEquals(signature, expected) else { throw .badSignature }
        guard let bytes = Base64URL.decode(String(parts[1])), case .object(let payload)? = try? JSONParser.parse(bytes) else {
            throw .malformed("signed_request payload is not a JSON object")
        }
        let algorithm = payload["algorithm"]?.stringValue ?? ""
        guard algorithm.uppercased() == "HMAC-SHA256" else { throw .algorithm(String(algorithm.prefix(32))) }
        guard let userId = TokenIntrospection.identifier(payload["user_id"]) else {
            throw .malformed("signed_request has no user_id")
        }
        guard let issuedAt = payload["issued_at"]?.intValue else { throw .malformed("signed_request has no issued_at") }
        guard issuedAt <= now + clockSkewSeconds else { throw .issuedInFuture }
        guard now - issuedAt <= maxAgeSeconds else { throw .tooOld }
        return SignedRequest(userId: userId, issuedAt: issuedAt, payload: payload)
    }
}

extension SignedRequest.Failure {
    /// The refusal the gateway logs (with the check) and answers with 400.
    var refusal: CredentialRefusal {
        let (check, detail): (CredentialCheck, String) = switch self {
        case .malformed(let why): (.format, why)
        case .badSignature: (.signature, "signed_request signature is invalid")
        case .algorithm(let name): (.algorithm, "signed_request must use HMAC-SHA256, not \"\(name)\"")
        case .issuedInFuture: (.issuedAt, "signed_request was issued in the future")
        case .tooOld: (.age, "signed_request is too old")
        }
        return AccessTokenChecks.refusal(check, detail)
    }
}
