import Outbound

/// The `email` section of the configuration: password accounts, email links, action links and delivery.
public struct EmailSettings: Sendable, Equatable {
    /// Policy, abuse limits and the on/off switches of the email provider.
    public var provider = EmailProvider.Configuration()
    /// The keys of `email.limits` the operator wrote: in emulator mode the others are off (`forEmulator`).
    public var explicitLimits: Set<String> = []
    /// Firebase's "email enumeration protection": sign-in errors collapse into `INVALID_LOGIN_CREDENTIALS`,
    /// `createAuthUri` reveals nothing and password-reset requests for unknown addresses succeed silently.
    public var improvedEmailPrivacy = false
    /// Email and password changes and account deletion need a sign-in at most this long ago; 0 disables.
    public var recentSignInSeconds: Int64 = 300
    /// scrypt parameters for new hashes (older hashes keep theirs and are upgraded on the next sign-in).
    public var scrypt = ScryptPasswordHasher.Parameters()
    /// Threads that run password hashing; 0 means one less than the number of cores (at least one).
    public var kdfWorkers = 0
    /// Hashes allowed to wait for a KDF thread before requests are refused; 0 means 32 per worker.
    public var kdfMaxQueued = 0
    /// Where action links point (the gateway's `/__/auth/action`); default from `publicUrl` or host/port.
    public var actionUrl: String?
    /// The product name in emails; default the project id.
    public var appName: String?
    /// Template override directory; default `<dataDir>/templates`.
    public var templatesDirectory: String?
    /// Outgoing mail; nil means mail is not sent (emulator mode lists codes at `/emulator/v1/.../oobCodes`).
    public var smtp: SMTPDelivery?

    public init() {}
}

/// SMTP submission plus the sender and retry policy.
public struct SMTPDelivery: Sendable, Equatable {
    public var server: SMTPSettings
    public var fromAddress: String
    public var fromName: String?
    /// First retry delay; doubles per failed attempt up to `maxBackoffSeconds`.
    public var initialBackoffSeconds: Int64 = 5
    public var maxBackoffSeconds: Int64 = 600
    /// Seconds between looks at the outbox when nothing woke the sender.
    public var pollSeconds: Double = 1

    public init(server: SMTPSettings, fromAddress: String, fromName: String? = nil) {
        self.server = server
        self.fromAddress = fromAddress
        self.fromName = fromName
    }
}
