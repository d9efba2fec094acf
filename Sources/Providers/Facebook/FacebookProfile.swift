import AuthCore
import Federation
import WireFormats

/// The Graph profile (`/me?fields=id,name,first_name,last_name,email,picture.type(large)`).
public struct GraphProfile: Sendable, Equatable {
    /// The app-scoped user id.
    public var id: String
    public var name: String?
    /// Missing when the user declined the `email` permission or registered with a phone number.
    public var email: String?
    /// `picture.data.url`.
    public var pictureURL: String?
    /// Everything Graph returned, for `rawUserInfo`.
    public var fields: JSONObject

    /// nil when the answer has no id.
    public init?(_ fields: JSONObject) {
        guard let id = TokenIntrospection.identifier(fields["id"]) else { return nil }
        self.id = id
        self.name = Self.text(fields["name"])
        self.email = Self.text(fields["email"])
        self.pictureURL = Self.text(fields["picture"]?["data"]?["url"])
        self.fields = fields
    }

    static func text(_ value: JSONValue?) -> String? {
        guard let text = value?.stringValue, !text.isEmpty else { return nil }
        return text
    }
}

/// Turns what Facebook said into the identity the gateway links. Facebook is an untrusted email provider
/// (as in Firebase): its address is reported, unverified, and never links accounts by itself; an existing
/// account with that address gets `needConfirmation` instead.
enum FacebookIdentity {
    /// A classic token's identity: the Graph profile is `rawUserInfo` (with `granted_scopes` from
    /// `debug_token`, as Firebase adds them), the access token is echoed as `oauthAccessToken`.
    static func classic(_ profile: GraphProfile, scopes: [String], accessToken: String) -> VerifiedIdentity {
        var raw = profile.fields
        if !scopes.isEmpty { raw["granted_scopes"] = .array(scopes.map(JSONValue.string)) }
        return VerifiedIdentity(providerId: .facebook, subject: profile.id, email: profile.email.map { .untrusted($0) },
                                displayName: profile.name, photoUrl: profile.pictureURL,
                                rawUserInfo: JSONSerializer.string(.object(raw)),
                                echoedCredential: ["oauthAccessToken": accessToken])
    }

    /// A Limited Login token's identity: its claims are `rawUserInfo` (`name`, `given_name`, `family_name`,
    /// `email`, `picture` as a URL), the token is echoed as `oauthIdToken`.
    static func limitedLogin(_ token: VerifiedToken, subject: String, idToken: String) -> VerifiedIdentity {
        let claims = token.claims
        return VerifiedIdentity(providerId: .facebook, subject: subject,
                                email: GraphProfile.text(claims["email"]).map { .untrusted($0) },
                                displayName: GraphProfile.text(claims["name"]), photoUrl: GraphProfile.text(claims["picture"]),
                                rawUserInfo: JSONSerializer.string(.object(claims)),
                                echoedCredential: ["oauthIdToken": idToken])
    }
}
