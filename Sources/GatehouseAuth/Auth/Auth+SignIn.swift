import Foundation

extension Auth {
    /// A new anonymous account; link a credential to it later to keep its uid.
    @discardableResult
    public func signInAnonymously() async throws -> AuthDataResult {
        let response = try await backend.post(.signUp, ["returnSecureToken": true])
        return try await finishSignIn(response, providerID: nil)
    }

    /// A new email and password account.
    @discardableResult
    public func createUser(withEmail email: String, password: String) async throws -> AuthDataResult {
        let response = try await backend.post(.signUp, ["email": email, "password": password, "returnSecureToken": true])
        return try await finishSignIn(response, providerID: EmailAuthProvider.id)
    }

    @discardableResult
    public func signIn(withEmail email: String, password: String) async throws -> AuthDataResult {
        try await signIn(with: EmailAuthProvider.credential(withEmail: email, password: password))
    }

    /// The link from a sign-in email sent by `sendSignInLink(toEmail:actionCodeSettings:)`.
    @discardableResult
    public func signIn(withEmail email: String, link: String) async throws -> AuthDataResult {
        try await signIn(with: EmailAuthProvider.credential(withEmail: email, link: link))
    }

    /// Signs in with any credential: a provider's, a phone code, or the updated credential of a
    /// `credentialAlreadyInUse` error, which signs in to the account that owns the identity.
    @discardableResult
    public func signIn(with credential: AuthCredential) async throws -> AuthDataResult {
        let request = CredentialRequest(credential, intent: .signIn)
        let response = try await backend.post(request.endpoint, request.body)
        if let refusal = request.refusal(in: response) { throw refusal }
        return try await finishSignIn(response, providerID: credential.provider)
    }

    /// Turns a sign-in answer into the current user: reads the account (`accounts:lookup`) so `providerData` and
    /// `metadata` are complete, stores the session, and tells the listeners.
    func finishSignIn(_ response: GatewayResponse, providerID: String?) async throws -> AuthDataResult {
        let user = try await makeUser(from: response)
        try adopt(user)
        return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(response, providerID: providerID),
                              credential: Self.providerCredential(in: response, providerID: providerID))
    }

    /// A `User` for the session in `response`, its profile read from the gateway.
    func makeUser(from response: GatewayResponse) async throws -> User {
        guard let tokens = TokenPair(signIn: response, receivedAt: configuration.clock()) else {
            throw AuthError(.internalError, "The gateway's answer carries no session (idToken, refreshToken).")
        }
        try checkAudience(of: tokens.idToken)
        let profile = try await lookup(idToken: tokens.idToken)
        return User(auth: self, tokens: tokens, profile: profile)
    }

    /// `accounts:lookup` for the user of `idToken`.
    func lookup(idToken: String) async throws -> UserProfile {
        let response = try await backend.post(.lookup, ["idToken": idToken])
        guard let first = response.objects("users").first, let profile = UserProfile(lookup: first) else {
            throw AuthError(.userNotFound, "The gateway's lookup answer has no user.")
        }
        return profile
    }

    /// A token minted for another project means this configuration points at the wrong gateway or project.
    func checkAudience(of idToken: String) throws {
        guard let claims = JWTClaims.decode(idToken) else {
            throw AuthError(.internalError, "The gateway's ID token is not a JWT.")
        }
        let audience = claims["aud"] as? String
        guard audience == configuration.projectID else {
            throw AuthError(.invalidConfiguration, "The gateway issued a token for project \(audience ?? "(none)"), "
                + "not for \(configuration.projectID): check projectID.")
        }
    }

    /// The provider's own tokens echoed by `signInWithIdp` (`oauthIdToken`, `oauthAccessToken`).
    static func providerCredential(in response: GatewayResponse, providerID: String?) -> OAuthCredential? {
        let idToken = response.string("oauthIdToken")
        let accessToken = response.string("oauthAccessToken")
        guard idToken != nil || accessToken != nil, let provider = response.string("providerId") ?? providerID else { return nil }
        return OAuthCredential(providerID: provider, idToken: idToken, rawNonce: nil, accessToken: accessToken)
    }
}
