import Foundation

/// A signed-in account (FirebaseAuth's `User`): its profile as last read from the gateway, and its session.
///
/// Profile properties are snapshots; `reload()` reads them again. Methods that talk to the gateway use an ID
/// token that is fresh for at least `tokenRefreshMargin`, refreshing it first when needed.
public final class User: UserInfo {
    /// The account's id (`localId`); it never changes, also when an anonymous user links a provider.
    public let uid: String
    let backend: GatewayBackend
    let configuration: AuthConfiguration
    let state: Locked<UserState>
    private let owner: WeakAuth

    init(auth: Auth, tokens: TokenPair, profile: UserProfile) {
        uid = profile.uid
        backend = auth.backend
        configuration = auth.configuration
        state = Locked(UserState(tokens: tokens, profile: profile))
        owner = WeakAuth(auth)
    }

    /// The `Auth` this user belongs to, while it exists.
    public var auth: Auth? { owner.auth }

    public var email: String? { profile.email }
    public var displayName: String? { profile.displayName }
    public var photoURL: URL? { profile.photoURL }
    public var phoneNumber: String? { profile.phoneNumber }
    public var isEmailVerified: Bool { profile.isEmailVerified }
    /// True for an account with no email, phone number or linked provider.
    public var isAnonymous: Bool { profile.isAnonymous }
    /// One entry per linked provider (`password`, `apple.com`, `phone`, ...).
    public var providerData: [any UserInfo] { profile.providerData }
    public var metadata: UserMetadata { profile.metadata }
    /// Always `firebase`, as in FirebaseAuth.
    public var providerID: String { "firebase" }
    /// The current refresh token (a secret: it signs in as this user).
    public var refreshToken: String? { tokenPair.refreshToken }

    var profile: UserProfile { state.current.profile }
    var tokenPair: TokenPair { state.current.tokens }
}

/// The mutable part of a `User`, always changed under its lock.
struct UserState {
    var tokens: TokenPair
    var profile: UserProfile
    /// Counts replacements of `tokens`: an answer (a refresh, or a refusal) for tokens that a newer session has
    /// replaced meanwhile is not applied to the newer one.
    var generation = 0
    /// The refresh in flight: every caller that needs a new token waits for this one request.
    var refreshing: Task<SessionTokens, any Error>?

    var session: SessionTokens { SessionTokens(tokens: tokens, generation: generation) }
}

/// Tokens with the generation they had when they were taken.
struct SessionTokens: Sendable {
    let tokens: TokenPair
    let generation: Int
}

/// A user refers to its `Auth` weakly: `Auth` holds its current user.
final class WeakAuth: @unchecked Sendable {
    private(set) weak var auth: Auth?

    init(_ auth: Auth) {
        self.auth = auth
    }
}
