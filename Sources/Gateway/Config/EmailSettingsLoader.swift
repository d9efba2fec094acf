import Foundation
import Outbound
import ProviderEmail

/// Reads the `email` section of the config file (every key is listed in the README).
enum EmailSettingsLoader {
    static let known: Set = ["enabled", "emailLinkEnabled", "passwordPolicy", "limits", "improvedEmailPrivacy",
                             "recentSignInSeconds", "scrypt", "kdfWorkers", "kdfMaxQueued", "actionUrl", "appName",
                             "templatesDir", "smtp"]

    static func apply(_ r: FieldReader, to e: inout EmailSettings) throws {
        if let unknown = r.object.keys.first(where: { !known.contains($0) }) {
            throw ConfigurationLoader.Failure("unknown config key \"email.\(unknown)\"")
        }
        e.provider.enabled = try r.bool("enabled") ?? e.provider.enabled
        e.provider.emailLinkEnabled = try r.bool("emailLinkEnabled") ?? e.provider.emailLinkEnabled
        e.improvedEmailPrivacy = try r.bool("improvedEmailPrivacy") ?? e.improvedEmailPrivacy
        e.recentSignInSeconds = try r.int64("recentSignInSeconds") ?? e.recentSignInSeconds
        e.kdfWorkers = try r.int("kdfWorkers") ?? e.kdfWorkers
        e.kdfMaxQueued = try r.int("kdfMaxQueued") ?? e.kdfMaxQueued
        e.actionUrl = try r.string("actionUrl") ?? e.actionUrl
        e.appName = try r.string("appName") ?? e.appName
        e.templatesDirectory = try r.string("templatesDir") ?? e.templatesDirectory
        if let p = try r.object("passwordPolicy") {
            var policy = e.provider.policy
            policy.minLength = try p.int("minLength") ?? policy.minLength
            policy.maxLength = try p.int("maxLength") ?? policy.maxLength
            policy.requireLowercase = try p.bool("requireLowercase") ?? policy.requireLowercase
            policy.requireUppercase = try p.bool("requireUppercase") ?? policy.requireUppercase
            policy.requireDigit = try p.bool("requireDigit") ?? policy.requireDigit
            policy.requireNonAlphanumeric = try p.bool("requireNonAlphanumeric") ?? policy.requireNonAlphanumeric
            guard policy.minLength >= 1, policy.maxLength >= policy.minLength, policy.maxLength <= 4096 else {
                throw ConfigurationLoader.Failure("email.passwordPolicy needs 1 <= minLength <= maxLength <= 4096")
            }
            e.provider.policy = policy
        }
        if let l = try r.object("limits") {
            e.provider.signUpsPerIPPerHour = try l.int("signUpsPerIPPerHour") ?? e.provider.signUpsPerIPPerHour
            e.provider.sendsPerIPPerHour = try l.int("sendsPerIPPerHour") ?? e.provider.sendsPerIPPerHour
            e.provider.sendsPerEmailPerHour = try l.int("sendsPerEmailPerHour") ?? e.provider.sendsPerEmailPerHour
            e.provider.failedPasswordsPerAccount = try l.int("failedPasswordsPerAccount") ?? e.provider.failedPasswordsPerAccount
            e.provider.failedPasswordWindowSeconds = try l.int64("failedPasswordWindowSeconds")
                ?? e.provider.failedPasswordWindowSeconds
        }
        if let s = try r.object("scrypt") {
            e.scrypt.n = try s.int64("n").map { UInt64($0) } ?? e.scrypt.n
            e.scrypt.r = try s.int64("r").map { UInt64($0) } ?? e.scrypt.r
            e.scrypt.p = try s.int64("p").map { UInt64($0) } ?? e.scrypt.p
            guard e.scrypt.n > 1, e.scrypt.n & (e.scrypt.n - 1) == 0, e.scrypt.r >= 1, e.scrypt.p >= 1,
                  e.scrypt.n * e.scrypt.r <= 1 << 24 else {
                throw ConfigurationLoader.Failure("email.scrypt needs n a power of two > 1, r >= 1, p >= 1 and n*r <= 16777216")
            }
        }
        if let smtp = try r.object("smtp") { e.smtp = try delivery(smtp) }
    }

    static func delivery(_ s: FieldReader) throws -> SMTPDelivery {
        let known: Set = ["url", "username", "password", "passwordFile", "from", "fromName", "security", "timeoutSeconds",
                          "caBundle", "initialBackoffSeconds", "maxBackoffSeconds", "pollSeconds"]
        if let unknown = s.object.keys.first(where: { !known.contains($0) }) {
            throw ConfigurationLoader.Failure("unknown config key \"email.smtp.\(unknown)\"")
        }
        guard let url = try s.string("url"), url.hasPrefix("smtp://") || url.hasPrefix("smtps://") else {
            throw ConfigurationLoader.Failure("email.smtp.url must be an smtp:// or smtps:// URL")
        }
        guard let from = try s.string("from"), EmailAddress.canonical(from) != nil else {
            throw ConfigurationLoader.Failure("email.smtp.from must be an email address")
        }
        var server = SMTPSettings(url: url, username: try s.string("username"), password: try password(s))
        if let security = try s.string("security") {
            guard let value = SMTPSettings.Security(rawValue: security) else {
                throw ConfigurationLoader.Failure("email.smtp.security must be none, opportunistic or required")
            }
            server.security = value
        }
        server.timeoutSeconds = try s.double("timeoutSeconds") ?? server.timeoutSeconds
        server.caBundlePath = try s.string("caBundle")
        var delivery = SMTPDelivery(server: server, fromAddress: from, fromName: try s.string("fromName"))
        delivery.initialBackoffSeconds = try s.int64("initialBackoffSeconds") ?? delivery.initialBackoffSeconds
        delivery.maxBackoffSeconds = try s.int64("maxBackoffSeconds") ?? delivery.maxBackoffSeconds
        delivery.pollSeconds = try s.double("pollSeconds") ?? delivery.pollSeconds
        guard delivery.initialBackoffSeconds >= 1, delivery.maxBackoffSeconds >= delivery.initialBackoffSeconds,
              delivery.pollSeconds > 0 else {
            throw ConfigurationLoader.Failure("email.smtp backoff and poll intervals must be positive")
        }
        return delivery
    }

    /// The SMTP password: inline, or (better, as config files tend to be committed) from `passwordFile`,
    /// whose trailing newline is dropped. Never both, so it is clear which one is used.
    static func password(_ s: FieldReader) throws -> String? {
        let inline = try s.string("password")
        guard let path = try s.string("passwordFile") else { return inline }
        guard inline == nil else {
            throw ConfigurationLoader.Failure("email.smtp: give password or passwordFile, not both")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationLoader.Failure("cannot read email.smtp.passwordFile \(path)")
        }
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }

    /// `GATEHOUSE_SMTP_PASSWORD` replaces the configured SMTP password (for secret stores that hand secrets
    /// over as environment variables); it has no effect without an `email.smtp` section.
    static func apply(environment: [String: String], to e: inout EmailSettings) {
        if let password = environment["GATEHOUSE_SMTP_PASSWORD"], !password.isEmpty { e.smtp?.server.password = password }
    }
}
