import WireFormats
/// Builds the claims of a Firebase ID token. Pure: everything it needs is passed in.
public enum IDTokenClaims {
    /// Claim names developers may not set through custom claims (the same list Firebase enforces).
    public static let reserved: Set<String> = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time",
        "firebase", "at_hash", "c_hash",
    ]

    /// - Parameters:
    ///   - customClaims: the account's developer claims (`customAttributes`), merged first so that no
    ///     reserved or profile claim can be overridden by them.
    ///   - extraClaims: claims from a custom token, merged over the account's custom claims.
    public static func make(
        user: UserRecord, identities: [ProviderIdentity], signInProvider: String, issuer: String,
        audience: String, issuedAt: Int64, lifetime: Int64, customClaims: JSONObject?, extraClaims: JSONObject?
    ) -> JSONObject {
        var claims = JSONObject()
        claims["iss"] = .string(issuer)
        claims["aud"] = .string(audience)
        // auth_time is the last real sign-in, never the refresh time (Firebase keeps it across refreshes).
        let authTime = (user.lastLoginAt ?? user.createdAt) / 1000
        claims["auth_time"] = .int(min(authTime, issuedAt))
        claims["user_id"] = .string(user.localId)
        claims["sub"] = .string(user.localId)
        claims["iat"] = .int(issuedAt)
        claims["exp"] = .int(issuedAt + lifetime)
        claims.set("name", user.displayName)
        claims.set("picture", user.photoUrl)
        for source in [customClaims, extraClaims] {
            guard let source else { continue }
            for (key, value) in source where !reserved.contains(key) && !protected.contains(key) {
                claims[key] = value
            }
        }
        // Set after the merge so developer claims can never replace them.
        claims.set("email", user.email)
        if user.email != nil { claims["email_verified"] = .bool(user.emailVerified) }
        claims.set("phone_number", user.phoneNumber)
        if signInProvider == ProviderID.anonymous.rawValue { claims["provider_id"] = .string("anonymous") }
        var firebase = JSONObject()
        firebase["identities"] = .object(IdentityProjection.identitiesClaim(user: user, identities: identities))
        firebase["sign_in_provider"] = .string(signInProvider)
        firebase.set("tenant", user.tenantId)
        claims["firebase"] = .object(firebase)
        return claims
    }

    /// Identity claims set before the merge that developer claims must not replace (`name` and `picture`
    /// may be replaced, as Firebase allows).
    private static let protected: Set<String> = ["user_id", "email", "email_verified", "phone_number", "provider_id"]
}
