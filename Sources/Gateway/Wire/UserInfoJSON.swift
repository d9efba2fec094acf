import AuthCore
import WireFormats

/// Renders a stored user as Firebase's `UserInfo` (what `accounts:lookup` returns), with Firebase's mixed
/// units: `validSince` in seconds as a string, `createdAt`/`lastLoginAt` in milliseconds as strings,
/// `passwordUpdatedAt` as a number of milliseconds and `lastRefreshAt` as RFC 3339.
enum UserInfoJSON {
    /// Base64 of "REDACTED": production never returns password hashes to clients, but the JS SDK decides a
    /// user is not anonymous when `email && passwordHash`, so a placeholder must be present.
    static let redactedPasswordHash = "UkVEQUNURUQ="

    static func render(_ user: UserRecord, identities: [ProviderIdentity]) -> JSONObject {
        var info = JSONObject()
        info["localId"] = .string(user.localId)
        info.set("email", user.email)
        info["emailVerified"] = .bool(user.emailVerified)
        info.set("displayName", user.displayName)
        info.set("photoUrl", user.photoUrl)
        info.set("phoneNumber", user.phoneNumber)
        if user.password != nil { info["passwordHash"] = .string(redactedPasswordHash) }
        info.set("passwordUpdatedAt", user.passwordUpdatedAt)
        info["providerUserInfo"] = .array(
            IdentityProjection.providerInfos(user: user, identities: identities).map { .object(render($0)) })
        info["validSince"] = .string(String(user.validSince))
        info["disabled"] = .bool(user.disabled)
        info["createdAt"] = .string(String(user.createdAt))
        info.set("lastLoginAt", user.lastLoginAt.map { String($0) })
        info.set("lastRefreshAt", user.lastRefreshAt.map { RFC3339.string(milliseconds: $0) })
        info.set("customAttributes", user.customAttributes)
        if user.emailLinkSignin { info["emailLinkSignin"] = true }
        info.set("tenantId", user.tenantId)
        info.set("initialEmail", user.initialEmail)
        return info
    }

    /// The `accounts:update` answer (`SetAccountInfoResponse`), shared by every way of updating an account.
    static func setAccountInfoResponse(_ user: UserRecord, identities: [ProviderIdentity]) -> JSONObject {
        var response: JSONObject = ["kind": "identitytoolkit#SetAccountInfoResponse", "localId": .string(user.localId)]
        response.set("email", user.email)
        response["emailVerified"] = .bool(user.emailVerified)
        response.set("displayName", user.displayName)
        response.set("photoUrl", user.photoUrl)
        response["providerUserInfo"] = .array(
            IdentityProjection.providerInfos(user: user, identities: identities).map { .object(render($0)) })
        return response
    }

    static func render(_ provider: IdentityProjection.ProviderInfo) -> JSONObject {
        var entry = JSONObject()
        entry["providerId"] = .string(provider.providerId)
        entry["rawId"] = .string(provider.rawId)
        entry.set("federatedId", provider.federatedId)
        entry.set("email", provider.email)
        entry.set("displayName", provider.displayName)
        entry.set("photoUrl", provider.photoUrl)
        entry.set("screenName", provider.screenName)
        entry.set("phoneNumber", provider.phoneNumber)
        return entry
    }
}
