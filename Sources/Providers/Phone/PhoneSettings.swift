import AuthCore

/// Operator settings for phone sign-in (the `phone` section of the config file).
public struct PhoneSettings: Sendable, Equatable {
    /// Off unless switched on; in emulator mode on unless switched off (the Firebase emulator accepts every
    /// sign-in method). nil: not set in the file.
    public var enabled: Bool?
    public var codeLength: Int
    /// Firebase's codes last a few minutes; Telegram's Gateway accepts a `ttl` of 30 to 3600 seconds.
    public var codeLifetimeSeconds: Int64
    /// Wrong codes a `sessionInfo` survives; the next attempt, even with the right code, is refused.
    public var attemptsPerCode: Int
    /// Codes per number per hour, per client network per hour, and for the whole project per hour (0: no limit).
    /// Each code may cost money (Telegram Gateway, SMS), so the project-wide cap bounds a pumping attack's bill.
    public var sendsPerPhonePerHour: Int
    public var sendsPerIPPerHour: Int
    public var sendsPerHour: Int
    /// The send limits written in the config file: in emulator mode the others are off, as the Firebase emulator
    /// never rate-limits (a suite signing in hundreds of numbers from 127.0.0.1 must not be refused).
    public var explicitSendLimits: Set<String> = []
    /// Test numbers and their fixed codes (Firebase's "phone numbers for testing"): never sent, never limited.
    public var testNumbers: [String: String]
    /// Phone sender names in the order they are tried (empty: registration order).
    public var senders: [String]
    /// The message text; `{code}` is replaced by the code.
    public var messageTemplate: String
    /// The generic HTTP webhook sender, when configured.
    public var webhook: WebhookSettings?

    public static let defaultMessageTemplate = "{code} is your verification code."

    public init(enabled: Bool? = nil, codeLength: Int = 6, codeLifetimeSeconds: Int64 = 300, attemptsPerCode: Int = 5,
                sendsPerPhonePerHour: Int = 5, sendsPerIPPerHour: Int = 20, sendsPerHour: Int = 0,
                testNumbers: [String: String] = [:], senders: [String] = [],
                messageTemplate: String = PhoneSettings.defaultMessageTemplate, webhook: WebhookSettings? = nil) {
        self.enabled = enabled
        self.codeLength = codeLength
        self.codeLifetimeSeconds = codeLifetimeSeconds
        self.attemptsPerCode = attemptsPerCode
        self.sendsPerPhonePerHour = sendsPerPhonePerHour
        self.sendsPerIPPerHour = sendsPerIPPerHour
        self.sendsPerHour = sendsPerHour
        self.testNumbers = testNumbers
        self.senders = senders
        self.messageTemplate = messageTemplate
        self.webhook = webhook
    }

    /// These settings in emulator mode: per-client send limits not written in the file are off.
    public func forEmulator() -> PhoneSettings {
        var settings = self
        if !explicitSendLimits.contains("sendsPerPhonePerHour") { settings.sendsPerPhonePerHour = 0 }
        if !explicitSendLimits.contains("sendsPerIPPerHour") { settings.sendsPerIPPerHour = 0 }
        return settings
    }

    /// What an operator must fix, naming the key; nil when the settings are usable.
    public var problem: String? {
        if !(4...8).contains(codeLength) { return "phone.codeLength must be 4 to 8 (Telegram's Gateway takes 4 to 8 digits)" }
        if !(30...3600).contains(codeLifetimeSeconds) { return "phone.codeLifetimeSeconds must be 30 to 3600" }
        if attemptsPerCode < 1 { return "phone.attemptsPerCode must be at least 1" }
        if sendsPerPhonePerHour < 0 || sendsPerIPPerHour < 0 || sendsPerHour < 0 {
            return "phone.sendsPerPhonePerHour, .sendsPerIPPerHour and .sendsPerHour must not be negative (0 = unlimited)"
        }
        if !messageTemplate.contains("{code}") { return "phone.messageTemplate must contain {code}" }
        for (number, code) in testNumbers.sorted(by: { $0.key < $1.key }) {
            if !PhoneSettings.isE164(number) { return "phone.testNumbers: \(number) is not an E.164 number (+ and 2 to 15 digits)" }
            if !(4...8).contains(code.count) || !code.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return "phone.testNumbers: the code of \(number) must be 4 to 8 digits"
            }
        }
        if let webhook, let problem = webhook.problem { return problem }
        return nil
    }

    /// `+` and 2 to 15 digits, the first not 0: the numbers Firebase stores.
    static func isE164(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst()
        return text.utf8.first == UInt8(ascii: "+") && (2...15).contains(digits.count)
            && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } && digits.first != UInt8(ascii: "0")
    }
}

/// A secret read from the environment or a file: its description is a fixed placeholder, so printing the
/// settings cannot leak it.
public struct PhoneSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String
    public init(_ value: String) { self.value = value }
    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}

/// The generic webhook sender (`phone.webhook`): the gateway POSTs each code as signed JSON to an operator's
/// receiver, which hands it to a local SMS company.
public struct WebhookSettings: Sendable, Equatable {
    public static let secretVariable = "GATEHOUSE_PHONE_WEBHOOK_SECRET"

    public var url: String
    /// The HMAC key shared with the receiver; from `GATEHOUSE_PHONE_WEBHOOK_SECRET` or `secretFile`.
    public var secret: PhoneSecret
    public var timeoutSeconds: Double
    /// First retry delay and cap after a failed delivery (seconds).
    public var initialBackoffSeconds: Int64
    public var maxBackoffSeconds: Int64

    public init(url: String, secret: PhoneSecret, timeoutSeconds: Double = 10, initialBackoffSeconds: Int64 = 2,
                maxBackoffSeconds: Int64 = 30) {
        self.url = url
        self.secret = secret
        self.timeoutSeconds = timeoutSeconds
        self.initialBackoffSeconds = initialBackoffSeconds
        self.maxBackoffSeconds = maxBackoffSeconds
    }

    var problem: String? {
        if !(url.hasPrefix("https://") || url.hasPrefix("http://")) { return "phone.webhook.url must be an http(s) URL" }
        if secret.value.utf8.count < 16 { return "the phone webhook secret must be at least 16 characters" }
        if !(timeoutSeconds > 0 && timeoutSeconds <= 120) { return "phone.webhook.timeoutSeconds must be above 0 and at most 120" }
        if initialBackoffSeconds < 1 || maxBackoffSeconds < initialBackoffSeconds {
            return "phone.webhook.initialBackoffSeconds must be at least 1 and at most maxBackoffSeconds"
        }
        return nil
    }
}
