import Foundation
import ProviderKit
import ProviderTelegram
import Testing
import WireFormats

@Suite("Telegram configuration: bots, secrets and the start-up checks")
struct TelegramConfigurationTests {
    let factory = TelegramProviderFactory()

    func settings(_ json: String, environment: [String: String] = [:]) throws -> TelegramConfiguration {
        guard case .object(let object) = try JSONParser.parse(json) else { throw ConfigurationError("not an object") }
        return try factory.settings(from: ConfigSection(object, path: "telegram"), environment: environment)
    }

    func problem(_ json: String, environment: [String: String] = [:]) -> String? {
        do { _ = try settings(json, environment: environment); return nil } catch { return "\(error)" }
    }

    @Test("several bots, each token from its own environment variable; defaults for everything else")
    func bots() throws {
        let config = try settings(#"{"enabled": true, "bots": [{"id": 123456789}, {"id": "7342037359", "miniApp": false}]}"#,
                                  environment: ["GATEHOUSE_TELEGRAM_BOT_TOKEN_123456789": "123456789:one",
                                                "GATEHOUSE_TELEGRAM_BOT_TOKEN_7342037359": "7342037359:two",
                                                "GATEHOUSE_TELEGRAM_CLIENT_SECRET_7342037359": "web-secret"])
        #expect(config.bots.map(\.id) == ["123456789", "7342037359"])
        #expect(config.bots.map { $0.token?.value } == ["123456789:one", "7342037359:two"])
        #expect(config.bots[1].miniApp == false && config.bots[1].loginWidget == true)
        #expect(config.bots.allSatisfy { $0.authDateWindowSeconds == 86_400 })
        #expect(config.redirectBot?.id == "7342037359" && config.thirdPartyKey == .production)
        #expect(config.baseURL == "https://oauth.telegram.org" && config.issuer == "https://oauth.telegram.org")
    }

    @Test("a token and a client secret from files (trailing newline dropped)")
    func files() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = directory.appendingPathComponent("token"), secret = directory.appendingPathComponent("secret")
        try "42:file-token\n".write(to: token, atomically: true, encoding: .utf8)
        try "file-secret\n".write(to: secret, atomically: true, encoding: .utf8)
        let config = try settings(#"{"enabled": true, "bots": [{"id": "42", "tokenFile": "\#(token.path)", "clientSecretFile": "\#(secret.path)"}]}"#)
        #expect(config.bots[0].token?.value == "42:file-token" && config.bots[0].clientSecret?.value == "file-secret")
    }

    @Test("an inline token is not a config key: the file, which tends to be committed, never holds one")
    func inlineTokenRefused() {
        #expect(problem(#"{"enabled": true, "bots": [{"id": "42", "token": "42:inline"}]}"#) == #"unknown config key "telegram.bots[0].token""#)
    }

    @Test("a bot without its token refuses to start, naming the variable and the file key")
    func missingToken() throws {
        let message = try #require(problem(#"{"enabled": true, "bots": [{"id": "42"}]}"#))
        #expect(message.contains("GATEHOUSE_TELEGRAM_BOT_TOKEN_42") && message.contains("telegram.bots[0].tokenFile"))
        #expect(problem(#"{"enabled": true, "bots": [{"id": "42", "loginWidget": false, "miniApp": false}]}"#) == nil,
                "a bot used only for OpenID Connect needs no token")
    }

    @Test("another bot's token is caught at start, and the message never shows the token")
    func wrongToken() throws {
        let message = try #require(problem(#"{"enabled": true, "bots": [{"id": "42"}]}"#,
                                           environment: ["GATEHOUSE_TELEGRAM_BOT_TOKEN_42": "43:secret-part"]))
        #expect(message.contains("is not bot 42's") && !message.contains("secret-part"))
    }

    @Test("bad values are named by their key")
    func badValues() {
        let env = ["GATEHOUSE_TELEGRAM_BOT_TOKEN_42": "42:t"]
        #expect(problem(#"{"enabled": true}"#)?.contains("telegram.bots") == true)
        #expect(problem(#"{"enabled": true, "bots": [{"id": "bot42"}]}"#)?.contains("telegram.bots[0].id must be the numeric bot id") == true)
        #expect(problem(#"{"enabled": true, "bots": [{"id": 42}, {"id": 42}]}"#, environment: env) == "telegram.bots[1].id 42 is listed twice")
        #expect(problem(#"{"enabled": true, "bots": [{"id": 42}], "authDateWindowSeconds": 0}"#, environment: env)?.contains("authDateWindowSeconds") == true)
        #expect(problem(#"{"enabled": true, "thirdPartyMiniApps": {"botIds": ["x"]}}"#)?.contains("thirdPartyMiniApps.botIds") == true)
        #expect(problem(#"{"enabled": true, "thirdPartyMiniApps": {"botIds": ["1"], "publicKey": "staging"}}"#)
                == #"config key "telegram.thirdPartyMiniApps.publicKey" must be "production" or "test""#)
        #expect(problem(#"{"enabled": true, "bots": [{"id": 42}], "oidc": {"keyRefreshIntervalSeconds": 0}}"#, environment: env)?
                    .contains("telegram.oidc.keyRefreshIntervalSeconds must be at least 1") == true)
        #expect(problem(#"{"enabled": true, "bots": [{"id": 42}], "oidc": {"baseUrl": "ftp://x"}}"#, environment: env)
                == "telegram.oidc.baseUrl must be an http(s) URL")
        #expect(problem(#"{"enabled": true, "bots": [{"id": 42}], "oidc": {"nonce": true}}"#, environment: env)
                == #"unknown config key "telegram.oidc.nonce""#)
    }

    @Test("third-party Mini Apps alone (no token held) are a complete configuration, with the test key if asked")
    func thirdPartyOnly() throws {
        let config = try settings(#"{"enabled": true, "thirdPartyMiniApps": {"botIds": ["7342037359"], "publicKey": "test"}}"#)
        #expect(config.thirdPartyBotIds == ["7342037359"] && config.thirdPartyKey == .test && config.bots.isEmpty)
    }

    @Test("printing a configuration never prints a secret")
    func redacted() throws {
        let config = try settings(#"{"enabled": true, "bots": [{"id": "42"}]}"#,
                                  environment: ["GATEHOUSE_TELEGRAM_BOT_TOKEN_42": "42:do-not-print",
                                                "GATEHOUSE_TELEGRAM_CLIENT_SECRET_42": "client-do-not-print"])
        let printed = "\(config) \(String(reflecting: config))"
        #expect(!printed.contains("do-not-print") && printed.contains("<redacted>"))
    }
}
