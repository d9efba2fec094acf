import AuthCore

/// Email sign-in: password accounts and one-time sign-in links (Firebase provider id `password`).
///
/// The provider owns the rules that are the same wherever they apply — the password policy and the abuse
/// limits — so every endpoint that accepts a password or sends mail asks the same object.
public struct EmailProvider: CredentialProvider {
    public struct Configuration: Sendable, Equatable {
        /// Email/password sign-in (sign-up, sign-in, password reset).
        public var enabled: Bool
        /// Passwordless sign-in by email link.
        public var emailLinkEnabled: Bool
        public var policy: PasswordPolicy
        /// Password sign-ups allowed per client IP per hour; 0 disables the limit.
        public var signUpsPerIPPerHour: Int
        /// Emails sent (all kinds) per client IP per hour; 0 disables the limit.
        public var sendsPerIPPerHour: Int
        /// Emails sent to one address per hour; 0 disables the limit.
        public var sendsPerEmailPerHour: Int
        /// Wrong passwords allowed per account within `failedPasswordWindowSeconds` before sign-in is refused
        /// with `TOO_MANY_ATTEMPTS_TRY_LATER`; 0 disables the throttle.
        public var failedPasswordsPerAccount: Int
        public var failedPasswordWindowSeconds: Int64

        public init(enabled: Bool = true, emailLinkEnabled: Bool = true, policy: PasswordPolicy = PasswordPolicy(),
                    signUpsPerIPPerHour: Int = 100, sendsPerIPPerHour: Int = 60, sendsPerEmailPerHour: Int = 5,
                    failedPasswordsPerAccount: Int = 10, failedPasswordWindowSeconds: Int64 = 900) {
            self.enabled = enabled
            self.emailLinkEnabled = emailLinkEnabled
            self.policy = policy
            self.signUpsPerIPPerHour = signUpsPerIPPerHour
            self.sendsPerIPPerHour = sendsPerIPPerHour
            self.sendsPerEmailPerHour = sendsPerEmailPerHour
            self.failedPasswordsPerAccount = failedPasswordsPerAccount
            self.failedPasswordWindowSeconds = failedPasswordWindowSeconds
        }
    }

    public let configuration: Configuration
    /// A coarse per-client request limit: counted in this process (each instance has its own budget).
    private let signUpsPerIP: RateLimiter
    /// Password attempts and sends: counted where every instance sees them (the gateway passes the store's
    /// counters), so several instances do not multiply an attacker's budget.
    private let counters: any AbuseCounters

    public init(configuration: Configuration, time: any TimeSource, counters: (any AbuseCounters)? = nil) {
        self.configuration = configuration
        signUpsPerIP = RateLimiter(limit: configuration.signUpsPerIPPerHour, windowSeconds: 3600, time: time)
        self.counters = counters ?? LocalAbuseCounters(time: time)
    }

    public var id: ProviderID { .password }
    public var isEnabled: Bool { configuration.enabled }
    public var policy: PasswordPolicy { configuration.policy }
    public var startupSummary: [(String, ProviderLogValue)] {
        [("email_link", .bool(configuration.emailLinkEnabled)),
         ("sign_ups_per_ip_per_hour", .int(Int64(configuration.signUpsPerIPPerHour)))]
    }

    /// Email-link sign-in is a separate switch in Firebase (`OPERATION_NOT_ALLOWED` when off).
    public func requireEmailLinkEnabled() throws(AuthError) {
        guard configuration.emailLinkEnabled else { throw AuthError(.operationNotAllowed) }
    }

    /// One more password sign-up from this client, or `TOO_MANY_ATTEMPTS_TRY_LATER`.
    public func admitSignUp(_ context: RequestContext) throws(AuthError) {
        try requireEnabled()
        guard signUpsPerIP.allow(context.clientNetwork) else { throw AuthError(.tooManyAttemptsTryLater) }
    }

    /// One more email from this client to this address, or `TOO_MANY_ATTEMPTS_TRY_LATER`. Both limits
    /// apply: per IP against one sender spraying many addresses, per address against mail-bombing one person
    /// from many IPs.
    public func admitSend(to email: String, _ context: RequestContext) async throws {
        // Refused sends are not counted, so one exhausted limit never eats into the other.
        let events = [
            LimitedEvent(key: "send.ip:" + context.clientNetwork, limit: configuration.sendsPerIPPerHour, windowSeconds: 3600),
            LimitedEvent(key: "send.email:" + email, limit: configuration.sendsPerEmailPerHour, windowSeconds: 3600),
        ]
        guard try await counters.admit(events) else { throw AuthError(.tooManyAttemptsTryLater) }
    }

    /// Reserves one password attempt for an account before the KDF runs; false once its wrong attempts (and
    /// attempts still in flight) have used up the window. Reserving first is what stops parallel guesses from
    /// all passing the check before any failure is counted. From then on every attempt, right or wrong, is
    /// refused until the window ends (otherwise guessing could simply continue).
    public func beginPasswordAttempt(localId: String) async throws -> Bool {
        try await counters.admit([passwordAttempt(localId)])
    }

    /// The reserved attempt used the right password: it does not count as a failure.
    public func passwordAttemptSucceeded(localId: String) async throws {
        try await counters.refund(passwordAttempt(localId))
    }

    private func passwordAttempt(_ localId: String) -> LimitedEvent {
        LimitedEvent(key: "password:" + localId, limit: configuration.failedPasswordsPerAccount,
                     windowSeconds: configuration.failedPasswordWindowSeconds)
    }
}
