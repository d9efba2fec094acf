import AuthCore
import ProviderKit
import WireFormats

/// Reads the `telegram` section and builds Telegram sign-in. Bot tokens and client secrets come from
/// `GATEHOUSE_TELEGRAM_BOT_TOKEN_<bot id>` / `GATEHOUSE_TELEGRAM_CLIENT_SECRET_<bot id>` or from the files named by
/// `tokenFile` / `clientSecretFile`; never inline in the config file, which tends to be committed.
public struct TelegramProviderFactory: ProviderFactory {
    public static let keys: Set = ["enabled", "bots", "authDateWindowSeconds", "clockSkewSeconds", "thirdPartyMiniApps", "oidc", "gateway"]
    public static let botKeys: Set = ["id", "tokenFile", "clientSecretFile", "loginWidget", "miniApp", "authDateWindowSeconds"]
    public static let thirdPartyKeys: Set = ["botIds", "publicKey"]
    public static let oidcKeys: Set = ["baseUrl", "issuer", "acceptRawNonce", "maxTokenAgeSeconds", "keyRefreshIntervalSeconds"]
    public static let gatewayKeys: Set = ["tokenFile", "baseUrl", "checkSendAbility", "senderUsername", "callbackUrl",
                                          "reportMaxAgeSeconds", "timeoutSeconds"]

    public init() {}

    public var section: String { "telegram" }

    public func settings(from section: ConfigSection, environment: [String: String]) throws -> TelegramConfiguration {
        try section.requireKnownKeys(Self.keys)
        var telegram = TelegramConfiguration()
        telegram.enabled = try section.bool("enabled") ?? telegram.enabled
        telegram.authDateWindowSeconds = try section.int64("authDateWindowSeconds") ?? telegram.authDateWindowSeconds
        telegram.clockSkewSeconds = try section.int64("clockSkewSeconds") ?? telegram.clockSkewSeconds
        for bot in try section.sections("bots") ?? [] {
            telegram.bots.append(try Self.bot(bot, defaultWindow: telegram.authDateWindowSeconds, environment: environment))
        }
        if let thirdParty = try section.section("thirdPartyMiniApps", allowing: Self.thirdPartyKeys) {
            telegram.thirdPartyBotIds = try thirdParty.strings("botIds") ?? []
            if let name = try thirdParty.string("publicKey") {
                guard let key = TelegramPublicKey(rawValue: name) else {
                    throw ConfigurationError("config key \"\(thirdParty.name("publicKey"))\" must be \"production\" or \"test\"")
                }
                telegram.thirdPartyKey = key
            }
        }
        if let oidc = try section.section("oidc", allowing: Self.oidcKeys) {
            telegram.baseURL = try oidc.string("baseUrl") ?? telegram.baseURL
            telegram.issuer = try oidc.string("issuer") ?? telegram.issuer
            telegram.acceptRawNonce = try oidc.bool("acceptRawNonce") ?? telegram.acceptRawNonce
            telegram.maxTokenAgeSeconds = try oidc.int64("maxTokenAgeSeconds") ?? telegram.maxTokenAgeSeconds
            telegram.keyRefreshIntervalSeconds = try oidc.int64("keyRefreshIntervalSeconds") ?? telegram.keyRefreshIntervalSeconds
        }
        if let gateway = try section.section("gateway", allowing: Self.gatewayKeys) {
            telegram.gateway = try Self.gateway(gateway, environment: environment)
        }
        if let problem = telegram.problem { throw ConfigurationError(problem) }
        return telegram
    }

    /// `telegram.gateway`: phone codes through the Gateway API. The token comes from
    /// `GATEHOUSE_TELEGRAM_GATEWAY_TOKEN` or `tokenFile`.
    static func gateway(_ section: ConfigSection, environment: [String: String]) throws -> TelegramGatewaySettings {
        guard let token = try section.secret(fileKey: "tokenFile", environmentVariable: TelegramGatewaySettings.tokenVariable,
                                             environment: environment), !token.isEmpty else {
            throw ConfigurationError("telegram.gateway needs its API token: set \(TelegramGatewaySettings.tokenVariable) or \(section.name("tokenFile"))")
        }
        var gateway = TelegramGatewaySettings(token: TelegramSecret(token))
        gateway.baseURL = try section.string("baseUrl") ?? gateway.baseURL
        gateway.checkSendAbility = try section.bool("checkSendAbility") ?? gateway.checkSendAbility
        gateway.senderUsername = try section.string("senderUsername")
        gateway.callbackURL = try section.string("callbackUrl")
        gateway.reportMaxAgeSeconds = try section.int64("reportMaxAgeSeconds") ?? gateway.reportMaxAgeSeconds
        gateway.timeoutSeconds = try section.double("timeoutSeconds") ?? gateway.timeoutSeconds
        if let problem = gateway.problem { throw ConfigurationError(problem) }
        return gateway
    }

    /// One entry of `bots`. The id may be written as a number or a string; the secrets are looked up under it.
    static func bot(_ section: ConfigSection, defaultWindow: Int64, environment: [String: String]) throws -> TelegramBot {
        try section.requireKnownKeys(botKeys)
        let id: String
        if let number = section.object["id"]?.intValue {
            id = String(number)
        } else if let text = try section.string("id") {
            id = text
        } else {
            throw ConfigurationError("config key \"\(section.name("id"))\" is required: the bot's numeric id")
        }
        var bot = TelegramBot(id: id, authDateWindowSeconds: defaultWindow)
        bot.loginWidget = try section.bool("loginWidget") ?? bot.loginWidget
        bot.miniApp = try section.bool("miniApp") ?? bot.miniApp
        bot.authDateWindowSeconds = try section.int64("authDateWindowSeconds") ?? bot.authDateWindowSeconds
        bot.token = try section.secret(fileKey: "tokenFile", environmentVariable: TelegramConfiguration.tokenVariable(botId: id),
                                       environment: environment).map(TelegramSecret.init)
        bot.clientSecret = try section.secret(fileKey: "clientSecretFile",
                                              environmentVariable: TelegramConfiguration.clientSecretVariable(botId: id),
                                              environment: environment).map(TelegramSecret.init)
        return bot
    }

    public func plugins(_ settings: TelegramConfiguration, context: ProviderContext) throws -> PluginSet {
        let provider = try TelegramProvider(configuration: settings, fetcher: context.fetcher,
                                            payloads: context.ledger(kind: "telegram.payload"),
                                            nonces: context.ledger(kind: "telegram.nonce"), time: context.time,
                                            log: context.log(for: .telegram))
        guard let gateway = settings.gateway else { return PluginSet(providers: [provider]) }
        let log = context.log(for: .telegramGateway)
        let sender = TelegramGatewaySender(settings: gateway, publicBaseURL: context.publicBaseURL, fetcher: context.fetcher, log: log)
        let reports = TelegramGatewayReports(settings: gateway, records: context.records(for: .telegramGateway),
                                             time: context.time, log: log)
        return PluginSet(providers: [provider, reports], senders: [sender])
    }
}
