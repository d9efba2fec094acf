import Foundation

extension User {
    /// Adds `credential`'s sign-in method to this account (an anonymous user keeps its uid).
    ///
    /// An identity that belongs to another account fails with `credentialAlreadyInUse`; the error's
    /// `updatedCredential` signs in to that account with `Auth.signIn(with:)` (once, within 10 minutes).
    @discardableResult
    public func link(with credential: AuthCredential) async throws -> AuthDataResult {
        try await withIDToken { idToken in
            let request = CredentialRequest(credential, intent: .link(idToken: idToken))
            let response = try await backend.post(request.endpoint, request.body)
            if let refusal = request.refusal(in: response) { throw refusal }
            try await adoptSession(from: response)
            return AuthDataResult(user: self, answer: response, providerID: credential.provider)
        }
    }

    /// Proves again that the person holds `credential`, for the operations that need a recent sign-in (changing
    /// the email or password, deleting the account). Never creates an account: a credential of another account,
    /// or of none, fails with `userMismatch`.
    @discardableResult
    public func reauthenticate(with credential: AuthCredential) async throws -> AuthDataResult {
        let request = CredentialRequest(credential, intent: .reauthenticate)
        let response: GatewayResponse
        do {
            response = try await backend.post(request.endpoint, request.body)
        } catch let error as AuthError where error.code == .userNotFound {
            throw AuthError(.userMismatch, "The credential does not belong to this user.", gatewayCode: error.gatewayCode,
                            httpStatus: error.httpStatus)
        }
        if let refusal = request.refusal(in: response) { throw refusal }
        guard response.string("localId") == uid else {
            throw AuthError(.userMismatch, "The credential belongs to another user.")
        }
        try await adoptSession(from: response)
        return AuthDataResult(user: self, answer: response, providerID: credential.provider)
    }

    /// Removes a linked provider (`apple.com`, `facebook.com`, `phone`, `password`, ...).
    @discardableResult
    public func unlink(fromProvider provider: String) async throws -> User {
        guard providerData.contains(where: { $0.providerID == provider }) else {
            throw AuthError(.noSuchProvider, "The user has no \(provider) sign-in method.")
        }
        try await withIDToken { idToken in
            let response = try await backend.post(.update, ["idToken": idToken, "deleteProvider": [provider], "returnSecureToken": true])
            try await adoptSession(from: response)
        }
        return self
    }

    /// Takes the session of a link, reauthentication or account change answer (when it has one) and reads the
    /// account again.
    func adoptSession(from response: GatewayResponse) async throws {
        if let localId = response.string("localId"), localId != uid {
            throw AuthError(.userMismatch, "The gateway answered for another user.")
        }
        let tokens = TokenPair(signIn: response, receivedAt: configuration.clock())
        if let tokens { try configuration.checkAudience(of: tokens.idToken) }
        let profile = try await backend.lookup(idToken: tokens?.idToken ?? tokenPair.idToken)
        if let tokens { adopt(tokens, profile: profile) } else { adopt(profile) }
    }
}
