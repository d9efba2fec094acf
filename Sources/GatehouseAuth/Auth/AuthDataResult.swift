/// The outcome of a sign-in, link or reauthentication (FirebaseAuth's `AuthDataResult`).
public struct AuthDataResult: Sendable {
    public let user: User
    public let additionalUserInfo: AdditionalUserInfo?
    /// The provider's tokens as the gateway returned them (`oauthIdToken`, `oauthAccessToken`), for a federated
    /// sign-in.
    public let credential: OAuthCredential?
}

extension AuthDataResult {
    /// From a sign-in, link or reauthentication answer: what it said beyond the user, and the provider's own
    /// tokens that `signInWithIdp` echoes (`oauthIdToken`, `oauthAccessToken`).
    init(user: User, answer response: GatewayResponse, providerID: String?, createdAccount: Bool = false) {
        let idToken = response.string("oauthIdToken")
        let accessToken = response.string("oauthAccessToken")
        var credential: OAuthCredential?
        if idToken != nil || accessToken != nil, let provider = response.string("providerId") ?? providerID {
            credential = OAuthCredential(providerID: provider, idToken: idToken, rawNonce: nil, accessToken: accessToken)
        }
        self.init(user: user, additionalUserInfo: AdditionalUserInfo(response, providerID: providerID, createdAccount: createdAccount),
                  credential: credential)
    }
}

/// What the sign-in said beyond the user (FirebaseAuth's `AdditionalUserInfo`).
///
/// `@unchecked Sendable`: `profile` comes from `JSONSerialization` and is never mutated.
public struct AdditionalUserInfo: @unchecked Sendable {
    public let providerID: String?
    /// True when this sign-in created the account.
    public let isNewUser: Bool
    /// The provider's user name (`screenName`: the Telegram username, the GitHub login).
    public let username: String?
    /// The provider's profile (`rawUserInfo`) as JSON values.
    public let profile: [String: Any]?

    /// `createdAccount`: the answer is `accounts:signUp`'s, which always makes a new account and does not say so.
    init(_ response: GatewayResponse, providerID: String?, createdAccount: Bool = false) {
        self.providerID = response.string("providerId") ?? providerID
        isNewUser = createdAccount || response.bool("isNewUser")
        username = response.string("screenName")
        profile = response.string("rawUserInfo").flatMap { JSONObjectText.parse($0) }
    }
}
