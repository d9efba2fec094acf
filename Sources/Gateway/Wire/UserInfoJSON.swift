import AuthCore
import Foundation
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
        info.set("lastRefreshAt", user.lastRefreshAt.map(rfc3339))
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

    /// `2026-11-28T12:00:00.123Z`.
    static func rfc3339(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        let millis = Int(milliseconds % 1000)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))T"
            + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(millis, 3))Z"
    }
}
