import AuthCore
import ProviderKit
import WireFormats

/// Reads the `phone` section and builds phone sign-in, plus the webhook sender when `phone.webhook` is set.
/// The webhook's HMAC secret comes from `GATEHOUSE_PHONE_WEBHOOK_SECRET` or the file named by `secretFile`,
/// never inline in the config file, which tends to be committed.
public struct PhoneProviderFactory: ProviderFactory {
    public static let keys: Set = ["enabled", "codeLength", "codeLifetimeSeconds", "attemptsPerCode", "sendsPerPhonePerHour",
                                   "sendsPerIPPerHour", "sendsPerHour", "testNumbers", "senders", "messageTemplate", "webhook"]
    public static let webhookKeys: Set = ["url", "secretFile", "timeoutSeconds", "initialBackoffSeconds", "maxBackoffSeconds"]

    public init() {}

    public var section: String { "phone" }

    public func settings(from section: ConfigSection, environment: [String: String]) throws -> PhoneSettings {
        try section.requireKnownKeys(Self.keys)
        var settings = PhoneSettings()
        settings.enabled = try section.bool("enabled")
        settings.codeLength = try section.int("codeLength") ?? settings.codeLength
        settings.codeLifetimeSeconds = try section.int64("codeLifetimeSeconds") ?? settings.codeLifetimeSeconds
        settings.attemptsPerCode = try section.int("attemptsPerCode") ?? settings.attemptsPerCode
        settings.sendsPerPhonePerHour = try section.int("sendsPerPhonePerHour") ?? settings.sendsPerPhonePerHour
        settings.sendsPerIPPerHour = try section.int("sendsPerIPPerHour") ?? settings.sendsPerIPPerHour
        settings.sendsPerHour = try section.int("sendsPerHour") ?? settings.sendsPerHour
        settings.explicitSendLimits = Set(["sendsPerPhonePerHour", "sendsPerIPPerHour"].filter { section.has($0) })
        settings.senders = try section.strings("senders") ?? settings.senders
        settings.messageTemplate = try section.string("messageTemplate") ?? settings.messageTemplate
        if let numbers = try section.section("testNumbers") {
            for key in numbers.object.keys {
                guard let code = try numbers.string(key) else { continue }
                settings.testNumbers[key] = code
            }
        }
        if let webhook = try section.section("webhook", allowing: Self.webhookKeys) {
            guard let url = try webhook.string("url") else {
                throw ConfigurationError("config key \"\(webhook.name("url"))\" is required: where the gateway posts codes")
            }
            guard let secret = try webhook.secret(fileKey: "secretFile", environmentVariable: WebhookSettings.secretVariable,
                                                  environment: environment) else {
                throw ConfigurationError("phone.webhook needs its HMAC secret: set \(WebhookSettings.secretVariable) or \(webhook.name("secretFile"))")
            }
            var settingsOfWebhook = WebhookSettings(url: url, secret: PhoneSecret(secret))
            settingsOfWebhook.timeoutSeconds = try webhook.double("timeoutSeconds") ?? settingsOfWebhook.timeoutSeconds
            settingsOfWebhook.initialBackoffSeconds = try webhook.int64("initialBackoffSeconds") ?? settingsOfWebhook.initialBackoffSeconds
            settingsOfWebhook.maxBackoffSeconds = try webhook.int64("maxBackoffSeconds") ?? settingsOfWebhook.maxBackoffSeconds
            settings.webhook = settingsOfWebhook
        }
        if let problem = settings.problem { throw ConfigurationError(problem) }
        return settings
    }

    public func plugins(_ settings: PhoneSettings, context: ProviderContext) throws -> PluginSet {
        let settings = context.emulator ? settings.forEmulator() : settings
        let provider = PhoneProvider(settings: settings, enabled: settings.enabled ?? context.emulator, counters: context.counters)
        let senders: [any CodeSender] = settings.webhook.map {
            [WebhookCodeSender(settings: $0, fetcher: context.fetcher, time: context.time, log: context.log(for: .phone))]
        } ?? []
        return PluginSet(providers: [provider], senders: senders)
    }
}
