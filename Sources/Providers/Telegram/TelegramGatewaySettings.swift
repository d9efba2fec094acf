import AuthCore

extension ProviderID {
    /// Telegram's Gateway API (phone codes), as the receiver of its delivery reports:
    /// `POST /gatehouse/v1/providers/gateway.telegram.org/events`. Not a sign-in method.
    public static let telegramGateway: ProviderID = "gateway.telegram.org"
}

/// The `telegram.gateway` section: delivering phone codes through Telegram's Gateway API (gateway.telegram.org),
/// which reaches Telegram users where SMS from abroad often does not. Independent of Telegram sign-in
/// (`telegram.enabled`).
public struct TelegramGatewaySettings: Sendable, Equatable {
    public static let defaultBaseURL = "https://gatewayapi.telegram.org"
    public static let tokenVariable = "GATEHOUSE_TELEGRAM_GATEWAY_TOKEN"

    /// The API token from the Gateway account settings; from `GATEHOUSE_TELEGRAM_GATEWAY_TOKEN` or `tokenFile`.
    public var token: TelegramSecret
    public var baseURL: String
    /// Ask `checkSendAbility` first: a number that cannot receive goes to the next sender at once, and the
    /// `request_id` it returns makes the send that follows free.
    public var checkSendAbility: Bool
    /// A verified channel of the same account to send from (`sender_username`), if any.
    public var senderUsername: String?
    /// Where Telegram posts delivery reports (https, at most 256 bytes). Default: the gateway's public URL +
    /// `/gatehouse/v1/providers/gateway.telegram.org/events` when that URL is https; otherwise none are asked for.
    public var callbackURL: String?
    /// How old a delivery report's `X-Request-Timestamp` may be.
    public var reportMaxAgeSeconds: Int64
    public var timeoutSeconds: Double

    public init(token: TelegramSecret, baseURL: String = TelegramGatewaySettings.defaultBaseURL, checkSendAbility: Bool = true,
                senderUsername: String? = nil, callbackURL: String? = nil, reportMaxAgeSeconds: Int64 = 300,
                timeoutSeconds: Double = 10) {
        self.token = token
        self.baseURL = baseURL
        self.checkSendAbility = checkSendAbility
        self.senderUsername = senderUsername
        self.callbackURL = callbackURL
        self.reportMaxAgeSeconds = reportMaxAgeSeconds
        self.timeoutSeconds = timeoutSeconds
    }

    public static let reportsPath = "/gatehouse/v1/providers/\(ProviderID.telegramGateway.rawValue)/events"

    /// The callback URL sent with each code, given the gateway's public base URL.
    func callbackURL(publicBaseURL: String) -> String? {
        if let callbackURL { return callbackURL }
        return publicBaseURL.hasPrefix("https://") ? publicBaseURL + Self.reportsPath : nil
    }

    var problem: String? {
        if token.value.isEmpty { return "telegram.gateway needs its API token" }
        if !(baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://")) { return "telegram.gateway.baseUrl must be an http(s) URL" }
        if let callbackURL, callbackURL.utf8.count > 256 { return "telegram.gateway.callbackUrl must be at most 256 bytes" }
        if reportMaxAgeSeconds < 1 { return "telegram.gateway.reportMaxAgeSeconds must be at least 1" }
        if !(timeoutSeconds > 0 && timeoutSeconds <= 120) { return "telegram.gateway.timeoutSeconds must be above 0 and at most 120" }
        return nil
    }
}
