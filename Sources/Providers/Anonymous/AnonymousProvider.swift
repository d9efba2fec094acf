import AuthCore
import ProviderKit

/// Anonymous sign-in: creates accounts with no credential at all.
///
/// Because it needs nothing from the client it is the cheapest thing to abuse (bots creating millions of
/// junk accounts), so sign-ups are rate-limited per client IP, and the method can be switched off, in which
/// case Firebase answers `ADMIN_ONLY_OPERATION`.
public struct AnonymousProvider: CredentialFreeSignUp, AbandonedAccountCleanup {
    public struct Configuration: Sendable, Equatable {
        public var enabled: Bool
        /// Sign-ups allowed per client IP per hour; 0 disables the limit.
        public var signUpsPerIPPerHour: Int
        /// Whether the operator set `signUpsPerIPPerHour`: in emulator mode a limit left at its default is off,
        /// as the Firebase Auth Emulator never rate-limits.
        public var limitIsExplicit = false

        /// Delete anonymous accounts that never upgraded (off by default).
        public var cleanup: AbandonedAccountPolicy?

        public init(enabled: Bool = true, signUpsPerIPPerHour: Int = 300, cleanup: AbandonedAccountPolicy? = nil) {
            self.enabled = enabled
            self.signUpsPerIPPerHour = signUpsPerIPPerHour
            self.cleanup = cleanup
        }
    }

    public let configuration: Configuration
    private let limiter: RateLimiter

    public init(configuration: Configuration, time: any TimeSource) {
        self.configuration = configuration
        self.limiter = RateLimiter(limit: configuration.signUpsPerIPPerHour, windowSeconds: 3600, time: time)
    }

    /// The provider as emulator mode builds it: the default limit off, an explicit one kept.
    public init(emulatorConfiguration configuration: Configuration, time: any TimeSource) {
        var relaxed = configuration
        if !configuration.limitIsExplicit { relaxed.signUpsPerIPPerHour = 0 }
        self.init(configuration: relaxed, time: time)
    }

    public var id: ProviderID { .anonymous }
    public var isEnabled: Bool { configuration.enabled }
    public var disabledError: AuthError { AuthError(.adminOnlyOperation) }
    public var startupSummary: [(String, ProviderLogValue)] {
        [("sign_ups_per_ip_per_hour", .int(Int64(configuration.signUpsPerIPPerHour)))]
    }

    public var abandonedAccountPolicy: AbandonedAccountPolicy? { configuration.cleanup }

    public func admitSignUp(_ context: RequestContext) throws(AuthError) {
        try requireEnabled()
        guard limiter.allow(context.clientNetwork) else { throw AuthError(.tooManyAttemptsTryLater) }
    }
}
