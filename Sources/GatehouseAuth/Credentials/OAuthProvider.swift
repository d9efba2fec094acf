import Foundation

/// Credentials of identity providers by provider id: Apple, and any provider the gateway serves through
/// `signInWithIdp` (`google.com`, `facebook.com` for Limited Login, `telegram.org`, `oidc.<name>`, ...).
public enum OAuthProvider {
    /// Sign in with Apple: the identity token from `ASAuthorizationAppleIDCredential.identityToken`, the raw
    /// nonce whose SHA-256 was given to the request, and the name Apple hands over on the first authorization
    /// only (the gateway keeps it as the display name).
    public static func appleCredential(withIDToken idToken: String, rawNonce: String?,
                                       fullName: PersonNameComponents?) -> OAuthCredential {
        appleCredential(withIDToken: idToken, rawNonce: rawNonce, fullName: fullName, authorizationCode: nil)
    }

    /// As above, plus Apple's authorization code: with it the gateway can revoke the app's access at Apple when
    /// the account is deleted (Gatehouse; FirebaseAuth uses `Auth.revokeToken(withAuthorizationCode:)` for that).
    public static func appleCredential(withIDToken idToken: String, rawNonce: String?, fullName: PersonNameComponents?,
                                       authorizationCode: String?) -> OAuthCredential {
        var extra: [(String, String)] = []
        if let name = appleUserParameter(fullName) { extra.append(("user", name)) }
        if let authorizationCode { extra.append(("code", authorizationCode)) }
        return OAuthCredential(providerID: "apple.com", idToken: idToken, rawNonce: rawNonce, accessToken: nil, extraFields: extra)
    }

    /// An ID token (and its raw nonce) from any provider, by its id.
    public static func credential(withProviderID providerID: String, idToken: String, rawNonce: String?) -> OAuthCredential {
        OAuthCredential(providerID: providerID, idToken: idToken, rawNonce: rawNonce, accessToken: nil)
    }

    /// An ID token with the access token issued with it (FirebaseAuth's spelling without a nonce).
    public static func credential(withProviderID providerID: String, idToken: String, accessToken: String?) -> OAuthCredential {
        OAuthCredential(providerID: providerID, idToken: idToken, rawNonce: nil, accessToken: accessToken)
    }

    /// An ID token with an access token.
    public static func credential(withProviderID providerID: String, idToken: String, rawNonce: String?,
                                  accessToken: String?) -> OAuthCredential {
        OAuthCredential(providerID: providerID, idToken: idToken, rawNonce: rawNonce, accessToken: accessToken)
    }

    /// An access token alone (a provider whose access tokens the gateway checks, e.g. Telegram's signed data).
    public static func credential(withProviderID providerID: String, accessToken: String) -> OAuthCredential {
        OAuthCredential(providerID: providerID, idToken: nil, rawNonce: nil, accessToken: accessToken)
    }

    /// The newer FirebaseAuth spelling, with the provider id as a `String`.
    public static func credential(providerID: String, idToken: String? = nil, rawNonce: String? = nil,
                                  accessToken: String? = nil) -> OAuthCredential {
        OAuthCredential(providerID: providerID, idToken: idToken, rawNonce: rawNonce, accessToken: accessToken)
    }

    /// Apple's `user` parameter in the form the gateway reads: `{"name":{"firstName":…,"lastName":…}}`.
    static func appleUserParameter(_ name: PersonNameComponents?) -> String? {
        guard let name else { return nil }
        var parts: [String: String] = [:]
        parts["firstName"] = name.givenName
        parts["middleName"] = name.middleName
        parts["lastName"] = name.familyName
        parts = parts.filter { !$0.value.isEmpty }
        guard !parts.isEmpty, let data = try? JSONSerialization.data(withJSONObject: ["name": parts], options: [.sortedKeys]) else {
            return nil
        }
        return String(data: data, encoding: .utf8)
    }
}

/// Facebook Login. Classic access tokens here; Limited Login's ID token goes through
/// `OAuthProvider.credential(withProviderID: "facebook.com", idToken:, rawNonce:)`.
public enum FacebookAuthProvider {
    public static let id = "facebook.com"

    public static func credential(withAccessToken accessToken: String) -> OAuthCredential {
        OAuthCredential(providerID: id, idToken: nil, rawNonce: nil, accessToken: accessToken)
    }
}

/// Google sign-in (`google.com`): the ID token from Google's SDK, with or without its access token.
public enum GoogleAuthProvider {
    public static let id = "google.com"

    public static func credential(withIDToken idToken: String, accessToken: String?) -> OAuthCredential {
        OAuthCredential(providerID: id, idToken: idToken, rawNonce: nil, accessToken: accessToken)
    }
}
