import AuthCore
import ProviderKit

/// Email sign-in: password accounts and one-time sign-in links (Firebase provider id `password`).
///
/// The provider owns the rules that are the same wherever they apply — the password policy and the abuse
/// limits — so every endpoint that accepts a password or sends mail asks the same object.
public struct EmailProvider: PasswordAccounts {
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

        /// The Firebase Auth Emulator never rate-limits, and app test suites create hundreds of accounts from one
        /// address: in emulator mode every per-client limit is off unless the operator set it (a key of
        /// `email.limits` in `explicit`).
        public func forEmulator(keeping explicit: Set<String>) -> Configuration {
            var relaxed = self
            if !explicit.contains("signUpsPerIPPerHour") { relaxed.signUpsPerIPPerHour = 0 }
            if !explicit.contains("sendsPerIPPerHour") { relaxed.sendsPerIPPerHour = 0 }
            if !explicit.contains("sendsPerEmailPerHour") { relaxed.sendsPerEmailPerHour = 0 }
            if !explicit.contains("failedPasswordsPerAccount") { relaxed.failedPasswordsPerAccount = 0 }
            return relaxed
        }
    }

    public let configuration: Configuration
    public let recentSignInSeconds: Int64
    public let improvedEmailPrivacyDefault: Bool
    public let actionUrl: String?
    let passwords: PasswordService?
    let templates: EmailTemplates
    /// A coarse per-client request limit: counted in this process (each instance has its own budget).
    private let signUpsPerIP: RateLimiter
    /// Password attempts and sends: counted where every instance sees them (the gateway passes the store's
    /// counters), so several instances do not multiply an attacker's budget.
    private let counters: any AbuseCounters

    /// The provider as the factory builds it from the `email` section.
    init(settings: EmailSettings, passwords: PasswordService, templates: EmailTemplates, time: any TimeSource,
         counters: any AbuseCounters) {
        self.init(configuration: settings.provider, time: time, counters: counters, passwords: passwords,
                  templates: templates, recentSignInSeconds: settings.recentSignInSeconds,
                  improvedEmailPrivacy: settings.improvedEmailPrivacy, actionUrl: settings.actionUrl)
    }

    /// The rules alone (tests of limits and policy need no KDF pool or templates); counters in this process
    /// unless given.
    public init(configuration: Configuration, time: any TimeSource, counters: (any AbuseCounters)? = nil) {
        self.init(configuration: configuration, time: time, counters: counters ?? LocalAbuseCounters(time: time),
                  passwords: nil, templates: EmailTemplates(appName: "", overrideDirectory: nil), recentSignInSeconds: 300,
                  improvedEmailPrivacy: false, actionUrl: nil)
    }

    init(configuration: Configuration, time: any TimeSource, counters: any AbuseCounters, passwords: PasswordService?,
         templates: EmailTemplates, recentSignInSeconds: Int64, improvedEmailPrivacy: Bool, actionUrl: String?) {
        self.configuration = configuration
        self.counters = counters
        self.passwords = passwords
        self.templates = templates
        self.recentSignInSeconds = recentSignInSeconds
        self.improvedEmailPrivacyDefault = improvedEmailPrivacy
        self.actionUrl = actionUrl
        signUpsPerIP = RateLimiter(limit: configuration.signUpsPerIPPerHour, windowSeconds: 3600, time: time)
    }

    public var id: ProviderID { .password }
    public var isEnabled: Bool { configuration.enabled }
    public var policy: PasswordPolicy { configuration.policy }
    public var startupSummary: [(String, ProviderLogValue)] {
        [("email_link", .bool(configuration.emailLinkEnabled)),
         ("sign_ups_per_ip_per_hour", .int(Int64(configuration.signUpsPerIPPerHour)))]
    }

    public var emailLinkEnabled: Bool { configuration.emailLinkEnabled }

    public func checkPassword(_ password: String?) throws(AuthError) -> String { try policy.check(password) }

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
    public func beginPasswordAttempt(account: String) async throws -> Bool {
        try await counters.admit([passwordAttempt(account)])
    }

    /// The reserved attempt used the right password: it does not count as a failure.
    public func passwordAttemptSucceeded(account: String) async throws {
        try await counters.refund(passwordAttempt(account))
    }

    private func passwordAttempt(_ account: String) -> LimitedEvent {
        LimitedEvent(key: "password:" + account, limit: configuration.failedPasswordsPerAccount,
                     windowSeconds: configuration.failedPasswordWindowSeconds)
    }

    public func hash(_ password: String) async throws -> PasswordCredential {
        try await requirePasswords().hash(password)
    }

    public func verify(_ password: String, against credential: PasswordCredential?) async throws -> Bool {
        try await requirePasswords().verify(password, against: credential)
    }

    public func needsRehash(_ credential: PasswordCredential) -> Bool { passwords?.needsRehash(credential) ?? false }

    public func composeActionMail(_ type: OobRequestType, locale: String?, link: String, email: String,
                                  newEmail: String?) -> ComposedMail {
        let rendered = templates.render(type, locale: locale, link: link, email: email, newEmail: newEmail)
        return ComposedMail(subject: rendered.subject, text: rendered.text, html: rendered.html)
    }

    public func shutdown() { passwords?.pool.stop() }

    private func requirePasswords() throws -> PasswordService {
        guard let passwords else { throw AuthError(.operationNotAllowed, "password hashing is not configured") }
        return passwords
    }
}
