extension TelegramConfiguration {
    /// The environment variable a bot's token is read from (one per bot, so several bots never share a name).
    public static func tokenVariable(botId: String) -> String { "GATEHOUSE_TELEGRAM_BOT_TOKEN_\(botId)" }
    /// The environment variable a bot's Web Login client secret is read from.
    public static func clientSecretVariable(botId: String) -> String { "GATEHOUSE_TELEGRAM_CLIENT_SECRET_\(botId)" }

    /// The first thing an operator must fix, phrased with the config key names, or nil when the settings are
    /// usable. Checked at start, so a gateway never runs with a bot it cannot check. Messages never hold a token.
    public var problem: String? {
        guard enabled else { return nil }
        if bots.isEmpty && thirdPartyBotIds.isEmpty {
            return "telegram is enabled but neither telegram.bots nor telegram.thirdPartyMiniApps.botIds is set: add each bot with its id and token"
        }
        var seen: Set<String> = []
        for (index, bot) in bots.enumerated() {
            if let problem = Self.problem(of: bot, key: "telegram.bots[\(index)]") { return problem }
            if !seen.insert(bot.id).inserted { return "telegram.bots[\(index)].id \(bot.id) is listed twice" }
        }
        if let id = thirdPartyBotIds.first(where: { !Self.isBotId($0) }) {
            return "telegram.thirdPartyMiniApps.botIds must hold numeric bot ids, got \"\(id.prefix(40))\""
        }
        guard authDateWindowSeconds >= 1 else { return "telegram.authDateWindowSeconds must be at least 1" }
        guard clockSkewSeconds >= 0, clockSkewSeconds <= 600 else { return "telegram.clockSkewSeconds must be 0-600" }
        guard baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://") else {
            return "telegram.oidc.baseUrl must be an http(s) URL"
        }
        guard !issuer.isEmpty else { return "telegram.oidc.issuer must not be empty" }
        guard maxTokenAgeSeconds >= 1 else { return "telegram.oidc.maxTokenAgeSeconds must be at least 1" }
        guard keyRefreshIntervalSeconds >= 1 else {
            return "telegram.oidc.keyRefreshIntervalSeconds must be at least 1: it spaces the JWKS re-fetches that unknown key ids cause, and 0 would switch that rate limit off"
        }
        return nil
    }

    private static func problem(of bot: TelegramBot, key: String) -> String? {
        guard isBotId(bot.id) else {
            return "\(key).id must be the numeric bot id (the part of the bot token before the colon), got \"\(bot.id.prefix(40))\""
        }
        if bot.loginWidget || bot.miniApp {
            guard let token = bot.token?.value else {
                return "\(key) (bot \(bot.id)) needs its token for the Login Widget and Mini Apps: set \(tokenVariable(botId: bot.id)) or \(key).tokenFile, or set loginWidget and miniApp to false"
            }
            // A token pasted for the wrong bot would make every check fail at run time; say so at start instead.
            guard token.hasPrefix(bot.id + ":"), token.utf8.count > bot.id.utf8.count + 1 else {
                return "the token given for \(key) is not bot \(bot.id)'s: a bot token starts with the bot id and a colon"
            }
        }
        if let secret = bot.clientSecret, secret.value.isEmpty { return "\(key): the client secret is empty" }
        guard bot.authDateWindowSeconds >= 1 else { return "\(key).authDateWindowSeconds must be at least 1" }
        return nil
    }

    /// A bot id: 1-20 ASCII digits (Telegram's ids are positive 64-bit integers).
    static func isBotId(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 20 && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
