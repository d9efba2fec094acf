import Foundation

/// The entry point, as FirebaseAuth's `Auth`: signs users in, holds the current user, tells listeners when it
/// changes, and keeps the session in its store between launches.
///
/// Make one per gateway and keep it for the life of the app (`Auth.configure(_:)` and `Auth.auth()`, or your own
/// instance). Every method may be called from any thread or task.
public final class Auth: Sendable {
    public let configuration: AuthConfiguration
    let backend: GatewayBackend
    let listeners = AuthStateListeners()
    private let current: Locked<User?>
    private let language: Locked<String?>

    private static let shared = Locked<Auth?>(nil)
    /// How many undelivered changes `authStateChanges` keeps for a consumer.
    public static let authStateBufferSize = 16

    /// Checks the configuration (an `http://` URL is refused unless allowed for local development) and restores
    /// the session its store holds, if it belongs to this gateway.
    public init(configuration: AuthConfiguration) throws {
        if let problem = configuration.problem() { throw problem }
        self.configuration = configuration
        let language = Locked<String?>(nil)
        self.language = language
        backend = GatewayBackend(baseURL: configuration.gatewayURL, apiKey: configuration.apiKey, transport: configuration.transport,
                                 timeout: configuration.requestTimeout, languageCode: { language.current })
        current = Locked(nil)
        if let stored = try Self.restore(configuration) {
            current.withLock { $0 = User(auth: self, tokens: stored.tokens, profile: stored.profile) }
        }
    }

    /// Makes the shared instance `Auth.auth()` returns (FirebaseAuth's `FirebaseApp.configure()`).
    @discardableResult
    public static func configure(_ configuration: AuthConfiguration) throws -> Auth {
        let auth = try Auth(configuration: configuration)
        shared.withLock { $0 = auth }
        return auth
    }

    /// The shared instance. Call `Auth.configure(_:)` first.
    public static func auth() -> Auth {
        guard let auth = shared.current else { preconditionFailure("GatehouseAuth: call Auth.configure(_:) before Auth.auth()") }
        return auth
    }

    /// The signed-in user, or nil.
    public var currentUser: User? { current.current }

    /// The language of action emails and SMS (`X-Firebase-Locale`, e.g. `fa`); nil for the gateway's default.
    public var languageCode: String? {
        get { language.current }
        set { language.withLock { $0 = newValue } }
    }

    /// Forgets the user: removes the session from the store, then tells the listeners. The refresh token stays
    /// valid at the gateway until the password changes or an admin revokes it, as with Firebase.
    public func signOut() throws {
        try listeners.deliver {
            try removeStoredSession()
            current.withLock { $0 = nil }
            return .current(nil)
        }
    }

    // MARK: Auth state listeners

    /// Calls `listener` now with the current user, then after every sign-in and sign-out.
    @discardableResult
    public func addStateDidChangeListener(_ listener: @escaping @Sendable (Auth, User?) -> Void) -> AuthStateDidChangeListenerHandle {
        listeners.add({ [weak self] user in if let self { listener(self, user) } }, current: { currentUser })
    }

    public func removeStateDidChangeListener(_ handle: AuthStateDidChangeListenerHandle) {
        listeners.remove(handle)
    }

    /// The current user now, then after every sign-in and sign-out, as an `AsyncStream`. A consumer that falls
    /// behind by more than `authStateBufferSize` changes misses the oldest; the newest (the current user) is kept.
    public var authStateChanges: AsyncStream<User?> {
        AsyncStream(bufferingPolicy: .bufferingNewest(Self.authStateBufferSize)) { continuation in
            let handle = listeners.add({ user in continuation.yield(user) }, current: { currentUser })
            continuation.onTermination = { [weak self] _ in self?.listeners.remove(handle) }
        }
    }

    // MARK: The current user's session

    /// Makes `user` the current user: stores its session, then tells the listeners.
    func adopt(_ user: User) throws {
        try listeners.deliver {
            try store(user)
            current.withLock { $0 = user }
            return .current(user)
        }
    }

    /// Applies `change` to the session of `user` and stores the result if `user` is still the current user, as one
    /// step: a sign-out, a sign-in or a session ended meanwhile can neither come between nor be undone by it. A
    /// failing store keeps the new session in memory only.
    func sessionChanged<Result>(_ user: User, applying change: () -> Result) -> Result {
        listeners.change {
            let result = change()
            if currentUser === user { try? store(user) }
            return (result, .unchanged)
        }
    }

    /// Signs `user` out if it is still the current user (its session ended at the gateway). With `generation`, only
    /// if the refused tokens are still the user's (the generation they had): false when a newer session replaced
    /// them meanwhile, which stands.
    @discardableResult
    func endSession(of user: User, generation: Int? = nil) -> Bool {
        listeners.change {
            if let generation, user.state.current.generation != generation { return (false, .unchanged) }
            let ended = current.withLock { current -> Bool in
                guard current === user else { return false }
                current = nil
                return true
            }
            guard ended else { return (true, .unchanged) }
            try? removeStoredSession()
            return (true, .current(nil))
        }
    }

    private func store(_ user: User) throws {
        let session = StoredSession(gateway: configuration.gatewayURL, tokens: user.tokenPair, profile: user.profile)
        do {
            try configuration.sessionStore.save(try session.encoded(), key: configuration.sessionKey)
        } catch {
            throw AuthError(.keychainError, "The session could not be stored: \(error)")
        }
    }

    private func removeStoredSession() throws {
        do {
            try configuration.sessionStore.remove(key: configuration.sessionKey)
        } catch {
            throw AuthError(.keychainError, "The stored session could not be removed: \(error)")
        }
    }

    private static func restore(_ configuration: AuthConfiguration) throws -> StoredSession? {
        let data: Data?
        do {
            data = try configuration.sessionStore.load(key: configuration.sessionKey)
        } catch {
            throw AuthError(.keychainError, "The stored session could not be read: \(error)")
        }
        guard let data, let session = StoredSession.decode(data), session.gateway == configuration.gatewayURL.absoluteString else {
            return nil
        }
        return session
    }
}
