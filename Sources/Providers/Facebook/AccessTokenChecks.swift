import AuthCore
import Crypto
import ProviderKit
import WireFormats

/// What Graph's `debug_token` says about a user access token (`{"data":{…}}`).
public struct TokenIntrospection: Sendable, Equatable {
    public var isValid: Bool
    /// The app the token was issued to.
    public var appId: String?
    /// `USER`, `PAGE` or `APP`.
    public var type: String?
    /// The app-scoped user id (the identity's federated id).
    public var userId: String?
    /// Seconds; 0 means the token does not expire.
    public var expiresAt: Int64?
    public var scopes: [String]
    /// Facebook's reason for an invalid token (190 with subcode 463 for an expired session).
    public var errorCode: Int64?
    public var errorSubcode: Int64?

    /// nil when the answer has no `data` object.
    public init?(debugTokenResponse response: JSONObject) {
        guard let data = response["data"]?.objectValue else { return nil }
        isValid = data["is_valid"]?.boolValue ?? false
        appId = Self.identifier(data["app_id"])
        type = data["type"]?.stringValue
        userId = Self.identifier(data["user_id"])
        expiresAt = data["expires_at"]?.intValue
        scopes = data["scopes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        errorCode = data["error"]?["code"]?.intValue
        errorSubcode = data["error"]?["subcode"]?.intValue
    }

    /// Graph sends ids as strings; numbers are read too rather than refusing a valid token over a JSON type.
    static func identifier(_ value: JSONValue?) -> String? {
        if let text = value?.stringValue, !text.isEmpty { return text }
        return value?.intValue.map { String($0) }
    }
}

/// The checks on a classic access token, as pure decisions over `debug_token`'s answer and the profile. Each
/// refusal names its check for the log and tells the client `INVALID_IDP_RESPONSE : …`.
enum AccessTokenChecks {
    /// Returns the token's user id when it is valid, issued to `appId` (a token minted for another app is the
    /// classic token-substitution attack), a user token, and not expired.
    static func userId(of token: TokenIntrospection, appId: String, now: Int64) throws(CredentialRefusal) -> String {
        let expired = token.expiresAt.map { $0 != 0 && $0 <= now } ?? false
        guard token.isValid else {
            if expired || token.errorSubcode == 463 { throw refusal(.expiry, "Facebook access token has expired") }
            let reason = token.errorCode.map { " (Graph error \($0))" } ?? ""
            throw refusal(.tokenRejected, "Facebook access token is invalid\(reason)")
        }
        guard token.appId == appId else {
            throw refusal(.audience, "Facebook access token was issued to another app")
        }
        guard token.type == "USER" else { throw refusal(.tokenType, "Facebook access token is not a user access token") }
        guard !expired else { throw refusal(.expiry, "Facebook access token has expired") }
        guard let userId = token.userId else { throw refusal(.format, "Facebook debug_token answer has no user_id") }
        return userId
    }

    /// The profile must be the token's user: a `/me` answer about anyone else means the two calls did not see
    /// the same token, and neither can be trusted.
    static func requireSameUser(_ profile: GraphProfile, tokenUserId: String) throws(CredentialRefusal) {
        guard profile.id == tokenUserId else {
            throw refusal(.subjectMismatch, "Facebook profile does not belong to the access token's user")
        }
    }

    static func refusal(_ check: CredentialCheck, _ detail: String) -> CredentialRefusal {
        CredentialRefusal(.facebook, check, AuthError(.invalidIdpResponse, detail))
    }
}

/// `appsecret_proof`: hex(HMAC-SHA256(key = app secret, message = the user access token)). Graph requires it on
/// every call made with a user token when the app has "Require App Secret" on; it proves the caller holds the
/// secret, so a stolen user token is useless to anyone else's server.
public enum AppSecretProof {
    public static func proof(accessToken: String, appSecret: String) -> String {
        Hex.encode(HMACSHA256.authenticate(key: Array(appSecret.utf8), message: Array(accessToken.utf8)))
    }
}
