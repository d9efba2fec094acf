import Foundation

extension User {
    /// The ID token to send to your backend: the stored one while it stays fresh for `tokenRefreshMargin` (at
    /// most half its lifetime), else (or when `forcingRefresh`) a new one from the gateway.
    public func getIDToken(forcingRefresh: Bool = false) async throws -> String {
        try await freshSession(forcingRefresh: forcingRefresh).tokens.idToken
    }

    /// The ID token with its claims read out (custom claims, sign-in provider, dates).
    public func getIDTokenResult(forcingRefresh: Bool = false) async throws -> AuthTokenResult {
        try AuthTokenResult(token: try await getIDToken(forcingRefresh: forcingRefresh))
    }

    /// Runs `body` with a fresh ID token. A refusal that means the session is over (`userTokenExpired`,
    /// `invalidUserToken`, `userNotFound`, `userDisabled`) signs the user out, as FirebaseAuth does, unless the
    /// token had been replaced while the request was in flight (a concurrent link, reauthentication or password
    /// change, which may end the old token): then `body` runs once more with the newer token.
    func withIDToken<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        var attempts = 0
        while true {
            attempts += 1
            let session = try await freshSession(forcingRefresh: false)
            do {
                return try await body(session.tokens.idToken)
            } catch let error as AuthError where Self.endsSession(error.code) {
                if sessionEnded(generation: session.generation) || attempts == 2 { throw error }
            }
        }
    }

    static func endsSession(_ code: AuthErrorCode) -> Bool {
        [.userTokenExpired, .invalidUserToken, .userNotFound, .userDisabled].contains(code)
    }

    /// After a refusal that ends the session: signs the user out if the refused tokens (of `generation`) are still
    /// its tokens, and says whether they were.
    func sessionEnded(generation: Int) -> Bool {
        guard let auth else { return state.current.generation == generation }
        return auth.endSession(of: self, generation: generation)
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
        case ready(SessionTokens)
        case wait(Task<SessionTokens, any Error>)
    }

    private func freshSession(forcingRefresh: Bool) async throws -> SessionTokens {
        let now = configuration.clock()
        let next = state.withLock { state -> Next in
            if let refreshing = state.refreshing { return .wait(refreshing) }
            if !forcingRefresh && state.tokens.isFresh(at: now, margin: configuration.tokenRefreshMargin) {
                return .ready(state.session)
            }
            let (refreshToken, generation) = (state.tokens.refreshToken, state.generation)
            let task = Task { try await self.refresh(refreshToken, generation: generation) }
            state.refreshing = task
            return .wait(task)
        }
        switch next {
        case .ready(let session): return session
        case .wait(let task): return try await task.value
        }
    }

    /// Exchanges `refreshToken` (of `generation`) for new tokens. When a newer session replaced it meanwhile, the
    /// newer session stands: the refresh's tokens are dropped, and so is a refusal that would end the session.
    private func refresh(_ refreshToken: String, generation: Int) async throws -> SessionTokens {
        do {
            let response = try await backend.refresh(refreshToken)
            guard let tokens = TokenPair(refresh: response, receivedAt: configuration.clock()) else {
                throw AuthError(.internalError, "The gateway's token answer has no id_token and refresh_token.")
            }
            try configuration.checkAudience(of: tokens.idToken)
            return changeSession { state -> SessionTokens in
                state.refreshing = nil
                if state.generation == generation {
                    state.tokens = tokens
                    state.generation += 1
                }
                return state.session
            }
        } catch {
            state.withLock { $0.refreshing = nil }
            if let error = error as? AuthError, Self.endsSession(error.code), !sessionEnded(generation: generation) {
                return state.current.session
            }
            throw error
        }
    }
}
