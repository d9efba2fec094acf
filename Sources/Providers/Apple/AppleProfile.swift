import AuthCore
import WireFormats

/// The profile Apple gives once: the name on the first authorization, sent by clients as the `user` parameter.
enum AppleProfile {
    /// The display name from `user`, in either the web form `{"name":{"firstName","lastName"},"email"}` or the
    /// iOS SDK's `PersonNameComponents` form (`givenName`, `middleName`, `familyName`). Blank parts are dropped;
    /// nil when nothing is left, so a later sign-in without a name never blanks a stored one.
    static func displayName(fromUserParameter text: String?) -> String? {
        guard let text, !text.isEmpty, case .object(let user)? = try? JSONParser.parse(text) else { return nil }
        let name = user["name"]?.objectValue ?? user
        let parts = [["firstName", "givenName"], ["middleName"], ["lastName", "familyName"]].compactMap { keys in
            keys.lazy.compactMap { name[$0]?.stringValue?.trimmingWhitespace() }.first { !$0.isEmpty }
        }
        if !parts.isEmpty { return parts.joined(separator: " ") }
        if let full = name["fullName"]?.stringValue?.trimmingWhitespace(), !full.isEmpty { return full }
        return nil
    }

    /// Apple's address is trusted for linking only when verified and real: a relay address is unique per app
    /// team, so it proves nothing about any other account that happens to hold it. Relay addresses are still
    /// verified (Apple forwards to the person), so clients see `emailVerified: true` as with Firebase.
    static func email(of token: AppleIdentityToken) -> VerifiedIdentity.Email? {
        guard let email = token.email else { return nil }
        guard token.emailVerified else { return .untrusted(email) }
        return token.isPrivateEmail ? .verifiedNotForLinking(email) : .trusted(email)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
