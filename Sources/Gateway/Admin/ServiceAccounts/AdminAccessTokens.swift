import AuthCore
import WireFormats

/// The OAuth2 access tokens the gateway issues to service accounts for its admin API (what Google's token
/// endpoint issues as `ya29.…`).
///
/// A token is the account's email, the project and an expiry sealed under the master key (AES-256-GCM, its own
/// purpose label), so every instance sharing the database can check it without storing tokens, and nobody
/// without the master key can make or alter one. It says who the caller is until it expires; whether that
/// account is still registered is checked on every use (`GatewayResponder`), so removing an account ends its
/// tokens at once.
struct AdminAccessTokens: Sendable {
    static let prefix = "gha1."
    static let sealingPurpose = "gatehouse.admin-access-token.v1"
    /// As Google's: an hour; google-auth and the other Google client libraries refresh shortly before.
    static let lifetimeSeconds: Int64 = 3600

    let sealer: Sealer
    let projectId: String

    func issue(clientEmail: String, now: Int64) throws -> String {
        let claims: JSONObject = ["sub": .string(clientEmail), "aud": .string(projectId),
                                  "exp": .int(now + Self.lifetimeSeconds)]
        let sealed = try sealer.seal(JSONSerializer.bytes(.object(claims)), purpose: Self.sealingPurpose)
        return Self.prefix + Base64URL.encode(sealed)
    }

    /// The account a token was issued to, if it is one of ours, for this project, and unexpired at `now`.
    func clientEmail(of token: String, now: Int64) -> String? {
        guard token.hasPrefix(Self.prefix),
              let sealed = Base64URL.decode(String(token.dropFirst(Self.prefix.count))),
              let plain = try? sealer.open(sealed, purpose: Self.sealingPurpose),
              case .object(let claims)? = try? JSONParser.parse(plain),
              claims["aud"]?.stringValue == projectId,
              let expiresAt = claims["exp"]?.intValue, now < expiresAt
        else { return nil }
        return claims["sub"]?.stringValue
    }
}
