import Crypto
import Testing
@testable import ProviderTelegram
import WireFormats

/// The reference's Appendix A: the published Mini App vector (Telegram-Mini-Apps/init-data-golang#11) and the
/// self-made widget vector, checked through the module's own decoding, string building and key derivation.
@Suite("Telegram published test vectors")
struct PublishedVectorTests {
    @Test("widget vector: the data-check-string, sorted, and the hash under SHA-256(token)")
    func widgetVector() throws {
        let data = try TelegramSignedData(parsing: Signer.widget(Vectors.widgetFields), decoding: .form)
        #expect(String(decoding: data.dataCheckString(), as: UTF8.self) == Vectors.widgetDataCheckString)
        let key = TelegramDataChecks.widgetKey(token: Vectors.widgetToken)
        #expect(Hex.encode(HMACSHA256.authenticate(key: key, message: data.dataCheckString())) == Vectors.widgetHash)
    }

    @Test("the two key derivations differ: the widget's data under the Mini App key gives the other published hash")
    func keyDerivationsDiffer() throws {
        let message = Array(Vectors.widgetDataCheckString.utf8)
        let miniAppKey = TelegramDataChecks.miniAppKey(token: Vectors.widgetToken)
        #expect(Hex.encode(HMACSHA256.authenticate(key: miniAppKey, message: message)) == Vectors.widgetHashUnderMiniAppKey)
        #expect(miniAppKey != TelegramDataChecks.widgetKey(token: Vectors.widgetToken))
    }

    @Test("Mini App vector: the HMAC matches with signature inside the data-check-string, and not without it")
    func miniAppHMAC() throws {
        let data = try TelegramSignedData(parsing: Vectors.miniAppInitData, decoding: .percentOnly)
        let key = TelegramDataChecks.miniAppKey(token: Vectors.miniAppToken)
        #expect(HMACSHA256.authenticate(key: key, message: data.dataCheckString()) == data.hash)
        #expect(HMACSHA256.authenticate(key: key, message: data.dataCheckString(excluding: ["signature"])) != data.hash)
    }

    @Test("Mini App vector: the user JSON is byte-exact after decoding (the + and the \\/ escapes survive)")
    func miniAppDecoding() throws {
        let data = try TelegramSignedData(parsing: Vectors.miniAppInitData, decoding: .percentOnly)
        let user = try #require(data.text("user"))
        #expect(user.hasPrefix(#"{"id":279058397,"first_name":"Vladislav + - ? \/","last_name":"Kibenko""#))
        #expect(user.contains(#""photo_url":"https:\/\/t.me\/i\/userpic\/320\/"#))
    }

    @Test("Mini App vector: Telegram's Ed25519 signature verifies under the production key for bot 7342037359")
    func miniAppEd25519() throws {
        let data = try TelegramSignedData(parsing: Vectors.miniAppInitData, decoding: .percentOnly)
        let production = try Ed25519PublicKey(rawRepresentation: Hex.decode(TelegramPublicKey.production.hex)!)
        let signer = try TelegramDataChecks.thirdPartySigner(data, botIds: [Vectors.miniAppBotId], key: production, windowSeconds: 60)
        #expect(signer.botId == Vectors.miniAppBotId)
        let test = try Ed25519PublicKey(rawRepresentation: Hex.decode(TelegramPublicKey.test.hex)!)
        #expect(throws: TelegramFailure.badSignature) {
            try TelegramDataChecks.thirdPartySigner(data, botIds: [Vectors.miniAppBotId], key: test, windowSeconds: 60)
        }
    }
}
