import Foundation

extension User {
    /// The ID token to send to your backend: the stored one while it stays fresh for `tokenRefreshMargin`,
    /// else (or when `forcingRefresh`) a new one from the gateway.
    public func getIDToken(forcingRefresh: Bool = false) async throws -> String {
        try await freshTokens(forcingRefresh: forcingRefresh).idToken
    }

    /// The ID token with its claims read out (custom claims, sign-in provider, dates).
    public func getIDTokenResult(forcingRefresh: Bool = false) async throws -> AuthTokenResult {
        try AuthTokenResult(token: try await getIDToken(forcingRefresh: forcingRefresh))
    }

    /// Runs `body` with a fresh ID token. A refusal that means the session is over (`userTokenExpired`,
    /// `invalidUserToken`, `userNotFound`, `userDisabled`) signs the user out, as FirebaseAuth does.
    func withIDToken<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        do {
            return try await body(try await getIDToken())
        } catch let error as AuthError {
            if Self.endsSession(error.code) { auth?.endSession(of: self) }
            throw error
        }
    }

    static func endsSession(_ code: AuthErrorCode) -> Bool {
        [.userTokenExpired, .invalidUserToken, .userNotFound, .userDisabled].contains(code)
    }

    /// Replaces the session with one the gateway just issued for this user (after a link, a reauthentication, or a
    /// change of password or email) and stores it.
    func adopt(_ tokens: TokenPair, profile: UserProfile? = nil) {
        changeSession { state in
            state.tokens = tokens
            state.generation += 1
            if let profile { state.profile = profile }
        }
    }

    func adopt(_ profile: UserProfile) {
        changeSession { $0.profile = profile }
    }

    /// Changes the session and stores it as one step of the `Auth` (see `Auth.sessionChanged(_:applying:)`).
    @discardableResult
    func changeSession<Result>(_ change: (inout UserState) -> Result) -> Result {
        guard let auth else { return state.withLock(change) }
        return auth.sessionChanged(self) { state.withLock(change) }
    }

    private enum Next {
        case ready(TokenPair)
        case wait(Task<TokenPair, any Error>)
    }

    private func freshTokens(forcingRefresh: Bool) async throws -> TokenPair {
        let now = configuration.clock()
        let next = state.withLock { state -> Next in
            if let refreshing = state.refreshing { return .wait(refreshing) }
            if !forcingRefresh && state.tokens.isFresh(at: now, margin: configuration.tokenRefreshMargin) {
                return .ready(state.tokens)
            }
            let (refreshToken, generation) = (state.tokens.refreshToken, state.generation)
            let task = Task { try await self.refresh(refreshToken, generation: generation) }
            state.refreshing = task
            return .wait(task)
        }
        switch next {
        case .ready(let tokens): return tokens
        case .wait(let task): return try await task.value
        }
    }

    private func refresh(_ refreshToken: String, generation: Int) async throws -> TokenPair {
        do {
            let response = try await backend.refresh(refreshToken)
            guard let tokens = TokenPair(refresh: response, receivedAt: configuration.clock()) else {
                throw AuthError(.internalError, "The gateway's token answer has no id_token and refresh_token.")
            }
            return changeSession { state -> TokenPair in
                state.refreshing = nil
                if state.generation == generation {
                    state.tokens = tokens
                    state.generation += 1
                }
                return state.tokens
            }
        } catch {
            state.withLock { $0.refreshing = nil }
            if let error = error as? AuthError, Self.endsSession(error.code) { auth?.endSession(of: self) }
            throw error
        }
    }
}
