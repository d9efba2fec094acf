import Foundation

extension Auth {
    /// A new anonymous account; link a credential to it later to keep its uid.
    @discardableResult
    public func signInAnonymously() async throws -> AuthDataResult {
        let response = try await backend.post(.signUp, ["returnSecureToken": true])
        return try await finishSignIn(response, providerID: nil, createdAccount: true)
    }

    /// A new email and password account.
    @discardableResult
    public func createUser(withEmail email: String, password: String) async throws -> AuthDataResult {
        let response = try await backend.post(.signUp, ["email": email, "password": password, "returnSecureToken": true])
        return try await finishSignIn(response, providerID: EmailAuthProvider.id, createdAccount: true)
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
    func finishSignIn(_ response: GatewayResponse, providerID: String?, createdAccount: Bool = false) async throws -> AuthDataResult {
        let user = try await makeUser(from: response)
        try adopt(user)
        return AuthDataResult(user: user, answer: response, providerID: providerID, createdAccount: createdAccount)
    }

    /// A `User` for the session in `response`, its profile read from the gateway.
    func makeUser(from response: GatewayResponse) async throws -> User {
        guard let tokens = TokenPair(signIn: response, receivedAt: configuration.clock()) else {
            throw AuthError(.internalError, "The gateway's answer carries no session (idToken, refreshToken).")
        }
        try configuration.checkAudience(of: tokens.idToken)
        let profile = try await backend.lookup(idToken: tokens.idToken)
        return User(auth: self, tokens: tokens, profile: profile)
    }
}
