import AuthCore

extension ProviderID {
    /// Telegram, in all three forms (Login Widget, Mini App, OpenID Connect). Firebase clients name it with their
    /// generic OAuth credential (`OAuthProvider("telegram.org")`).
    public static let telegram: ProviderID = "telegram.org"
}

/// A value read from a secret source (environment or file) that must never reach a log or an error message:
/// its description is a fixed placeholder, so printing a configuration cannot leak it.
public struct TelegramSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String
    public init(_ value: String) { self.value = value }
    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}

/// One bot: the identity it signs Login Widget and Mini App data with (its token) and, as an OpenID Connect
/// client (client id = bot id), its client secret for the code flow.
public struct TelegramBot: Sendable, Equatable {
    /// The numeric bot id: the part of the token before `:`, and the OIDC `client_id` and `aud`.
    public var id: String
    /// The bot token from @BotFather (`<id>:<secret>`). Keys the widget and Mini App checks; never logged.
    public var token: TelegramSecret?
    /// The Web Login client secret from @BotFather, for the code exchange; never logged.
    public var clientSecret: TelegramSecret?
    /// Accept Login Widget data signed for this bot.
    public var loginWidget: Bool
    /// Accept Mini App `initData` signed for this bot.
    public var miniApp: Bool
    /// How old (seconds since `auth_date`) widget and Mini App data for this bot may be.
    public var authDateWindowSeconds: Int64

    public init(id: String, token: TelegramSecret? = nil, clientSecret: TelegramSecret? = nil, loginWidget: Bool = true,
                miniApp: Bool = true, authDateWindowSeconds: Int64 = TelegramConfiguration.defaultAuthDateWindowSeconds) {
        self.id = id
        self.token = token
        self.clientSecret = clientSecret
        self.loginWidget = loginWidget
        self.miniApp = miniApp
        self.authDateWindowSeconds = authDateWindowSeconds
    }
}

/// Telegram's two Ed25519 keys for third-party Mini App validation (core.telegram.org/bots/webapps).
public enum TelegramPublicKey: String, Sendable, CaseIterable {
    case production
    /// The test environment's key (bots on Telegram's test servers).
    case test

    /// The raw key, hex as Telegram publishes it.
    public var hex: String {
        switch self {
        case .production: "e7bf03a2fa4602af4580703d88dda5bb59f32ed8b02a56c187fe7d34caed242d"
        case .test: "40055058a4ee38156a06562e52eece92a771bcd8346a8c4615cb7376eddf72ec"
        }
    }
}

/// Operator settings for Telegram sign-in (the `telegram` section of the config file).
public struct TelegramConfiguration: Sendable, Equatable {
    /// Telegram's OAuth host (authorize `/auth`, `/token`, `/.well-known/jwks.json`); tests point at a stand-in.
    public static let defaultBaseURL = "https://oauth.telegram.org"
    /// The `iss` of Telegram's ID tokens.
    public static let defaultIssuer = "https://oauth.telegram.org"
    /// A day: Mini App data is only regenerated when the app is reopened, so shorter windows break long sessions.
    public static let defaultAuthDateWindowSeconds: Int64 = 86_400

    public var enabled: Bool
    public var bots: [TelegramBot]
    /// Bots whose token the gateway does not hold but whose Mini App data it accepts through Telegram's
    /// Ed25519 signature (third-party validation).
    public var thirdPartyBotIds: [String]
    public var thirdPartyKey: TelegramPublicKey
    /// The `auth_date` window for third-party Mini App data (bots carry their own).
    public var authDateWindowSeconds: Int64
    /// How far in the future an `auth_date`, `iat` or `nbf` may lie, and how far past `exp` a token still counts.
    public var clockSkewSeconds: Int64
    public var baseURL: String
    public var issuer: String
    /// Also accept an ID token whose `nonce` claim is the raw nonce itself (for client libraries that pass the
    /// app's value through unhashed). Weaker; off by default.
    public var acceptRawNonce: Bool
    /// The oldest ID token (`iat`) accepted.
    public var maxTokenAgeSeconds: Int64
    /// The least time between JWKS re-fetches caused by unknown key ids. At least 1.
    public var keyRefreshIntervalSeconds: Int64
    /// Phone codes through Telegram's Gateway API (`telegram.gateway`), when configured.
    public var gateway: TelegramGatewaySettings?

    public init(enabled: Bool = false, bots: [TelegramBot] = [], thirdPartyBotIds: [String] = [],
                thirdPartyKey: TelegramPublicKey = .production,
                authDateWindowSeconds: Int64 = TelegramConfiguration.defaultAuthDateWindowSeconds,
                clockSkewSeconds: Int64 = 60, baseURL: String = TelegramConfiguration.defaultBaseURL,
                issuer: String = TelegramConfiguration.defaultIssuer, acceptRawNonce: Bool = false,
                maxTokenAgeSeconds: Int64 = 600, keyRefreshIntervalSeconds: Int64 = 60) {
        self.enabled = enabled
        self.bots = bots
        self.thirdPartyBotIds = thirdPartyBotIds
        self.thirdPartyKey = thirdPartyKey
        self.authDateWindowSeconds = authDateWindowSeconds
        self.clockSkewSeconds = clockSkewSeconds
        self.baseURL = baseURL
        self.issuer = issuer
        self.acceptRawNonce = acceptRawNonce
        self.maxTokenAgeSeconds = maxTokenAgeSeconds
        self.keyRefreshIntervalSeconds = keyRefreshIntervalSeconds
    }

    /// The bot that runs the redirect (code) flow: the first one with a client secret.
    public var redirectBot: TelegramBot? { bots.first { $0.clientSecret != nil } }

    /// Every bot id an ID token may name in `aud` (the OIDC client ids).
    public var clientIds: [String] { bots.map(\.id) }
}

/// Telegram endpoint URLs under the configured base URL.
enum TelegramEndpoints {
    static func url(_ base: String, _ path: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
    }
}
