import ProviderKit
import ProviderTelegram
import Testing
import WireFormats

@Suite("Telegram Gateway configuration (phone codes)")
struct TelegramGatewayConfigurationTests {
    func settings(_ json: String, environment: [String: String] = [:]) throws -> TelegramConfiguration {
        guard case .object(let object) = try JSONParser.parse(json) else { throw ConfigurationError("not an object") }
        return try TelegramProviderFactory().settings(from: ConfigSection(object, path: "telegram"), environment: environment)
    }

    @Test("the token comes from GATEHOUSE_TELEGRAM_GATEWAY_TOKEN; defaults point at gatewayapi.telegram.org")
    func defaults() throws {
        let config = try settings(#"{"gateway": {}}"#, environment: ["GATEHOUSE_TELEGRAM_GATEWAY_TOKEN": "AAA-token"])
        let gateway = try #require(config.gateway)
        #expect(gateway.token.value == "AAA-token")
        #expect(gateway.baseURL == "https://gatewayapi.telegram.org")
        #expect(gateway.checkSendAbility)
        #expect(!"\(gateway)".contains("AAA-token"))
        #expect(config.enabled == false)
    }

    @Test("no token, an unknown key or a long callback URL stops the start")
    func refusals() {
        #expect(throws: ConfigurationError.self) { _ = try settings(#"{"gateway": {}}"#) }
        #expect(throws: ConfigurationError.self) {
            _ = try settings(#"{"gateway": {"ttl": 5}}"#, environment: ["GATEHOUSE_TELEGRAM_GATEWAY_TOKEN": "t"])
        }
        let long = "https://a.example/" + String(repeating: "x", count: 250)
        #expect(throws: ConfigurationError.self) {
            _ = try settings(#"{"gateway": {"callbackUrl": "\#(long)"}}"#, environment: ["GATEHOUSE_TELEGRAM_GATEWAY_TOKEN": "t"])
        }
    }
}
