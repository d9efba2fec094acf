import AuthCore
import Foundation
import Outbound
import ProviderKit
import WireFormats

/// Reads the `email` section (every key is listed in the README) and builds the email provider (Firebase's
/// `password` provider) and, when `email.smtp` is set, the SMTP sender for action mail.
public struct EmailProviderFactory: ProviderFactory {
    public static let keys: Set = ["enabled", "emailLinkEnabled", "passwordPolicy", "limits", "improvedEmailPrivacy",
                                   "recentSignInSeconds", "scrypt", "kdfWorkers", "kdfMaxQueued", "actionUrl", "appName",
                                   "templatesDir", "smtp"]

    /// Test seams: a counting hasher, a capturing mailer.
    let hasher: (any PasswordHashing)?
    let mailer: (any MailSending)?

    public init(hasher: (any PasswordHashing)? = nil, mailer: (any MailSending)? = nil) {
        self.hasher = hasher
        self.mailer = mailer
    }

    public var section: String { "email" }

    public func settings(from r: ConfigSection, environment: [String: String]) throws -> EmailSettings {
        try r.requireKnownKeys(Self.keys)
        var e = EmailSettings()
        e.provider.enabled = try r.bool("enabled") ?? e.provider.enabled
        e.provider.emailLinkEnabled = try r.bool("emailLinkEnabled") ?? e.provider.emailLinkEnabled
        e.improvedEmailPrivacy = try r.bool("improvedEmailPrivacy") ?? e.improvedEmailPrivacy
        e.recentSignInSeconds = try r.int64("recentSignInSeconds") ?? e.recentSignInSeconds
        e.kdfWorkers = try r.int("kdfWorkers") ?? e.kdfWorkers
        e.kdfMaxQueued = try r.int("kdfMaxQueued") ?? e.kdfMaxQueued
        e.actionUrl = try r.string("actionUrl") ?? e.actionUrl
        e.appName = try r.string("appName") ?? e.appName
        e.templatesDirectory = try r.string("templatesDir") ?? e.templatesDirectory
        if let p = try r.section("passwordPolicy", allowing: ["minLength", "maxLength", "requireLowercase", "requireUppercase",
                                                              "requireDigit", "requireNonAlphanumeric"]) { e.provider.policy = try Self.policy(p, base: e.provider.policy) }
        if let l = try r.section("limits", allowing: ["signUpsPerIPPerHour", "sendsPerIPPerHour", "sendsPerEmailPerHour",
                                                      "failedPasswordsPerAccount", "failedPasswordWindowSeconds"]) {
            try Self.limits(l, into: &e.provider)
            e.explicitLimits = Set(l.object.keys.filter { l.has($0) })
        }
        if let s = try r.section("scrypt", allowing: ["n", "r", "p"]) { e.scrypt = try Self.scrypt(s, base: e.scrypt) }
        if let smtp = try r.section("smtp") { e.smtp = try SMTPDeliveryReader.delivery(smtp, environment: environment) }
        // Negative values would silently switch a protection off or size a pool by accident.
        for (key, value) in [("recentSignInSeconds", e.recentSignInSeconds), ("kdfWorkers", Int64(e.kdfWorkers)),
                             ("kdfMaxQueued", Int64(e.kdfMaxQueued))] where value < 0 {
            throw ConfigurationError("\(r.name(key)) must not be negative (0 means the default or off, as documented)")
        }
        return e
    }

    public func plugins(_ settings: EmailSettings, context: ProviderContext) throws -> PluginSet {
        let workers = PasswordService.workerCount(configured: settings.kdfWorkers,
                                                  cores: ProcessInfo.processInfo.activeProcessorCount)
        let passwords = PasswordService(hasher: hasher ?? ScryptPasswordHasher(parameters: settings.scrypt),
                                        pool: WorkerPool(name: "kdf", threadCount: workers),
                                        maxQueued: settings.kdfMaxQueued > 0 ? settings.kdfMaxQueued : 32 * workers)
        let templates = EmailTemplates(appName: settings.appName ?? context.projectId,
                                       overrideDirectory: settings.templatesDirectory
                                        ?? (context.dataDirectory as NSString).appendingPathComponent("templates"))
        var settings = settings
        if context.emulator { settings.provider = settings.provider.forEmulator(keeping: settings.explicitLimits) }
        let provider = EmailProvider(settings: settings, passwords: passwords, templates: templates, time: context.time,
                                     counters: context.counters)
        let senders: [any CodeSender] = settings.smtp.map {
            [SMTPCodeSender(delivery: $0, mailer: mailer ?? SMTPMailer(settings: $0.server), time: context.time)]
        } ?? []
        return PluginSet(providers: [provider], senders: senders)
    }

    static func policy(_ p: ConfigSection, base: PasswordPolicy) throws -> PasswordPolicy {
        var policy = base
        policy.minLength = try p.int("minLength") ?? policy.minLength
        policy.maxLength = try p.int("maxLength") ?? policy.maxLength
        policy.requireLowercase = try p.bool("requireLowercase") ?? policy.requireLowercase
        policy.requireUppercase = try p.bool("requireUppercase") ?? policy.requireUppercase
        policy.requireDigit = try p.bool("requireDigit") ?? policy.requireDigit
        policy.requireNonAlphanumeric = try p.bool("requireNonAlphanumeric") ?? policy.requireNonAlphanumeric
        guard policy.minLength >= 1, policy.maxLength >= policy.minLength, policy.maxLength <= 4096 else {
            throw ConfigurationError("email.passwordPolicy needs 1 <= minLength <= maxLength <= 4096")
        }
        return policy
    }

    static func limits(_ l: ConfigSection, into c: inout EmailProvider.Configuration) throws {
        c.signUpsPerIPPerHour = try l.int("signUpsPerIPPerHour") ?? c.signUpsPerIPPerHour
        c.sendsPerIPPerHour = try l.int("sendsPerIPPerHour") ?? c.sendsPerIPPerHour
        c.sendsPerEmailPerHour = try l.int("sendsPerEmailPerHour") ?? c.sendsPerEmailPerHour
        c.failedPasswordsPerAccount = try l.int("failedPasswordsPerAccount") ?? c.failedPasswordsPerAccount
        c.failedPasswordWindowSeconds = try l.int64("failedPasswordWindowSeconds") ?? c.failedPasswordWindowSeconds
    }

    static func scrypt(_ s: ConfigSection, base: ScryptPasswordHasher.Parameters) throws -> ScryptPasswordHasher.Parameters {
        var p = base
        p.n = try s.int64("n").map { UInt64($0) } ?? p.n
        p.r = try s.int64("r").map { UInt64($0) } ?? p.r
        p.p = try s.int64("p").map { UInt64($0) } ?? p.p
        guard p.n > 1, p.n & (p.n - 1) == 0, p.r >= 1, p.p >= 1, p.n * p.r <= 1 << 24 else {
            throw ConfigurationError("email.scrypt needs n a power of two > 1, r >= 1, p >= 1 and n*r <= 16777216")
        }
        return p
    }
}

/// Reads `email.smtp`: the server, the sender and the retry policy. The password comes from
/// `GATEHOUSE_SMTP_PASSWORD`, `passwordFile` (better, as config files tend to be committed) or `password`.
enum SMTPDeliveryReader {
    static let keys: Set = ["url", "username", "password", "passwordFile", "from", "fromName", "security",
                            "timeoutSeconds", "caBundle", "initialBackoffSeconds", "maxBackoffSeconds", "pollSeconds"]

    static func delivery(_ s: ConfigSection, environment: [String: String]) throws -> SMTPDelivery {
        try s.requireKnownKeys(keys)
        guard let url = try s.string("url"), url.hasPrefix("smtp://") || url.hasPrefix("smtps://") else {
            throw ConfigurationError("email.smtp.url must be an smtp:// or smtps:// URL")
        }
        guard let from = try s.string("from"), EmailAddress.canonical(from) != nil else {
            throw ConfigurationError("email.smtp.from must be an email address")
        }
        let password = try s.secret(fileKey: "passwordFile", environmentVariable: "GATEHOUSE_SMTP_PASSWORD",
                                    environment: environment, inlineKey: "password")
        var server = SMTPSettings(url: url, username: try s.string("username"), password: password)
        if let security = try s.string("security") {
            guard let value = SMTPSettings.Security(rawValue: security) else {
                throw ConfigurationError("email.smtp.security must be none, opportunistic or required")
            }
            server.security = value
        }
        server.timeoutSeconds = try s.double("timeoutSeconds") ?? server.timeoutSeconds
        guard server.timeoutSeconds > 0, server.timeoutSeconds <= 600 else {
            // 0 would mean "no timeout" to libcurl: a hung server would hold the sender forever.
            throw ConfigurationError("email.smtp.timeoutSeconds must be more than 0 and at most 600")
        }
        server.caBundlePath = try s.string("caBundle")
        var delivery = SMTPDelivery(server: server, fromAddress: from, fromName: try s.string("fromName"))
        delivery.initialBackoffSeconds = try s.int64("initialBackoffSeconds") ?? delivery.initialBackoffSeconds
        delivery.maxBackoffSeconds = try s.int64("maxBackoffSeconds") ?? delivery.maxBackoffSeconds
        delivery.pollSeconds = try s.double("pollSeconds") ?? delivery.pollSeconds
        guard delivery.initialBackoffSeconds >= 1, delivery.maxBackoffSeconds >= delivery.initialBackoffSeconds,
              delivery.pollSeconds > 0 else {
            throw ConfigurationError("email.smtp backoff and poll intervals must be positive")
        }
        return delivery
    }
}
