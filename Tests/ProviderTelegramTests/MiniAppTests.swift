import AuthCore
import Crypto
import Foundation
import ProviderKit
import ProviderTelegram
import Testing
import WireFormats

@Suite("Telegram Mini App initData: first-party HMAC and third-party Ed25519")
struct MiniAppTests {
    static let token = "5550001111:fresh-mini-app-bot-token"
    static let botId = "5550001111"

    /// Fresh initData for the test bot, shaped like an iOS client's (no query_id; chat_type and chat_instance).
    static func initData(user: String = #"{"id":777,"first_name":"Sara","last_name":"Ahmadi","username":"sara"}"#,
                         authDate: Int64, extra: [(String, String)] = []) -> String {
        Signer.miniApp([("user", user), ("chat_instance", "-42"), ("chat_type", "sender"), ("auth_date", String(authDate)),
                        ("signature", "c2lnbmF0dXJl")] + extra, token: token)
    }

    static func fixture(now: Int64 = Vectors.miniAppAuthDate + 60,
                        _ configure: @escaping (inout TelegramConfiguration) -> Void = { _ in }) throws -> TelegramFixture {
        try TelegramFixture(now: now) { config in
            config.bots.append(TelegramBot(id: botId, token: TelegramSecret(token), loginWidget: false))
            configure(&config)
        }
    }

    @Test("the published vector signs its user in: the JSON's id is the federated id, the profile byte-exact")
    func publishedVector() async throws {
        let fx = try Self.fixture()
        let identity = try await fx.signIn(accessToken: Vectors.miniAppInitData)
        #expect(identity.subject == Vectors.miniAppUserId && identity.email == nil)
        #expect(identity.displayName == #"Vladislav + - ? / Kibenko"# && identity.screenName == "vdkfrost")
        #expect(identity.photoUrl == "https://t.me/i/userpic/320/4FPEE4tmP3ATHa57u6MqTDih13LTOiMoKoLDRG4PnSA.svg")
        #expect(identity.rawUserInfo?.hasPrefix(#"{"id":279058397,"first_name":"Vladislav + - ? \/""#) == true)
    }

    @Test("+ in names: %2B (as Telegram encodes it) and a literal + (as some clients leave it) are both a plus")
    func plusInNames() async throws {
        let fx = try Self.fixture()
        let user = #"{"id":778,"first_name":"C++ fan","last_name":"A+B"}"#
        let encoded = Self.initData(user: user, authDate: fx.now)
        #expect(encoded.contains("%2B%2B%20fan"))
        #expect(try await fx.signIn(accessToken: encoded).displayName == "C++ fan A+B")
        let literal = Self.initData(user: #"{"id":779,"first_name":"D+"}"#, authDate: fx.now).replacingOccurrences(of: "%2B", with: "+")
        #expect(literal.contains("D+%22"))
        #expect(try await fx.signIn(accessToken: literal).displayName == "D+")
    }

    @Test("missing signature: removing `signature` from signed data breaks the HMAC, which covers it")
    func missingSignature() async throws {
        let fx = try Self.fixture()
        let stripped = Vectors.miniAppInitData.split(separator: "&").filter { !$0.hasPrefix("signature=") }.joined(separator: "&")
        let refusal = try #require(await fx.refusal(accessToken: stripped))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : Telegram Mini App init data hash does not match any configured bot")
        #expect(refusal.check == .signature)
    }

    @Test("a tampered field or a changed user JSON fails the HMAC")
    func tampered() async throws {
        let fx = try Self.fixture()
        let tampered = Vectors.miniAppInitData.replacingOccurrences(of: "chat_type=private", with: "chat_type=group")
        #expect(await fx.refusal(accessToken: tampered)?.check == .signature)
        let reserialised = Vectors.miniAppInitData.replacingOccurrences(of: "%5C%2F", with: "%2F")
        #expect(await fx.refusal(accessToken: reserialised)?.check == .signature, "the JSON must stay byte-exact")
    }

    @Test("replay: initData is accepted once (a Mini App signs in once per launch)")
    func replay() async throws {
        let fx = try Self.fixture()
        let data = Self.initData(authDate: fx.now)
        _ = try await fx.signIn(accessToken: data)
        let refusal = try #require(await fx.refusal(accessToken: data))
        #expect(refusal.check == .replay)
        #expect(refusal.message == "INVALID_IDP_RESPONSE : Duplicate credential received. Please try again with a new credential.")
    }

    @Test("stale and future auth_date are refused")
    func window() async throws {
        let fx = try Self.fixture()
        #expect(await fx.refusal(accessToken: Self.initData(authDate: fx.now - 86_401))?.check == .age)
        #expect(await fx.refusal(accessToken: Self.initData(authDate: fx.now + 61))?.check == .issuedAt)
    }

    @Test("a user JSON without a numeric id, or not JSON at all, is refused")
    func user() async throws {
        let fx = try Self.fixture()
        #expect(await fx.refusal(accessToken: Self.initData(user: #"{"first_name":"x"}"#, authDate: fx.now))?.message
                == "INVALID_IDP_RESPONSE : Telegram Mini App init data has no valid user id")
        #expect(await fx.refusal(accessToken: Self.initData(user: "not json", authDate: fx.now))?.check == .format)
        #expect(await fx.refusal(accessToken: Self.initData(user: #"{"id":1.5}"#, authDate: fx.now))?.check == .format)
    }

    @Test("a bot with Mini Apps switched off does not accept its initData")
    func miniAppOff() async throws {
        let fx = try Self.fixture { config in
            for index in config.bots.indices { config.bots[index].miniApp = false }
        }
        #expect(await fx.refusal(accessToken: Vectors.miniAppInitData)?.message
                == "INVALID_IDP_RESPONSE : Telegram Mini App init data is not accepted: no configured bot allows it")
    }
}

@Suite("Telegram Mini App third-party validation (Ed25519, no bot token)")
struct ThirdPartyMiniAppTests {
    /// The vector's bot allowlisted for third-party checks, its token not held.
    static func fixture(key: TelegramPublicKey = .production, botIds: [String] = [Vectors.miniAppBotId],
                        now: Int64 = Vectors.miniAppAuthDate + 60) throws -> TelegramFixture {
        try TelegramFixture(now: now) { config in
            config.bots = [TelegramBot(id: Vectors.widgetBotId, token: TelegramSecret(Vectors.widgetToken))]
            config.thirdPartyBotIds = botIds
            config.thirdPartyKey = key
        }
    }

    @Test("the published vector passes Telegram's Ed25519 check for an allowlisted bot")
    func valid() async throws {
        let identity = try await Self.fixture().signIn(accessToken: Vectors.miniAppInitData)
        #expect(identity.subject == Vectors.miniAppUserId)
    }

    @Test("a bot outside the allowlist is refused")
    func notAllowlisted() async throws {
        let refusal = try #require(try await Self.fixture(botIds: ["1111111111"]).refusal(accessToken: Vectors.miniAppInitData))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : Telegram Mini App init data signature is not Telegram's for an allowed bot")
        #expect(refusal.check == .signature)
    }

    @Test("Telegram's test-environment key does not accept production data")
    func testKey() async throws {
        #expect(try await Self.fixture(key: .test).refusal(accessToken: Vectors.miniAppInitData)?.check == .signature)
    }

    @Test("a tampered field fails the Ed25519 check")
    func tampered() async throws {
        let tampered = Vectors.miniAppInitData.replacingOccurrences(of: "chat_instance=8134722200314281151", with: "chat_instance=1")
        #expect(try await Self.fixture().refusal(accessToken: tampered)?.check == .signature)
    }

    @Test("without a signature there is nothing to check against Telegram's key")
    func missingSignature() async throws {
        let stripped = Vectors.miniAppInitData.split(separator: "&").filter { !$0.hasPrefix("signature=") }.joined(separator: "&")
        let refusal = try #require(try await Self.fixture().refusal(accessToken: stripped))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : Telegram Mini App init data has no signature")
    }

    @Test("replay: single use is bound to the signature, so rewriting the (unsigned) hash does not make it new")
    func replay() async throws {
        let fx = try Self.fixture()
        _ = try await fx.signIn(accessToken: Vectors.miniAppInitData)
        #expect(await fx.refusal(accessToken: Vectors.miniAppInitData)?.check == .replay)
        let rehashed = Vectors.miniAppInitData.replacingOccurrences(of: "hash=a433", with: "hash=b433")
        #expect(await fx.refusal(accessToken: rehashed)?.check == .replay)
    }

    @Test("the auth_date window applies to third-party data too")
    func stale() async throws {
        let fx = try Self.fixture(now: Vectors.miniAppAuthDate + 86_401)
        #expect(await fx.refusal(accessToken: Vectors.miniAppInitData)?.check == .age)
    }
}
