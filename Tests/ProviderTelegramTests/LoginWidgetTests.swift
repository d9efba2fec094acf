import AuthCore
import Crypto
import Foundation
import ProviderKit
import ProviderTelegram
import Testing
import WireFormats

@Suite("Telegram Login Widget: each check rejects what it exists for")
struct LoginWidgetTests {
    let fx: TelegramFixture
    init() throws { fx = try TelegramFixture(now: Vectors.widgetAuthDate + 30) }

    static func fields(id: String = "42", authDate: Int64 = Vectors.widgetAuthDate, extra: [(String, String)] = []) -> [(String, String)] {
        [("id", id), ("first_name", "Ada"), ("last_name", "Lovelace"), ("username", "ada"),
         ("photo_url", "https://t.me/i/userpic/320/ada.jpg"), ("auth_date", String(authDate))] + extra
    }

    @Test("the published widget vector signs the user in: id is the federated id, the profile comes along, no email")
    func publishedVector() async throws {
        let identity = try await fx.signIn(accessToken: Signer.widget(Vectors.widgetFields))
        #expect(identity.providerId == .telegram && identity.subject == "42")
        #expect(identity.displayName == "Ada" && identity.screenName == "ada" && identity.photoUrl == nil)
        #expect(identity.email == nil)
        #expect(identity.rawUserInfo == #"{"id":42,"first_name":"Ada","username":"ada","auth_date":1700000000}"#)
        #expect(identity.echoedCredential == ["oauthAccessToken": Signer.widget(Vectors.widgetFields)])
    }

    @Test("full profile: first and last name joined, https photo kept")
    func profile() async throws {
        let identity = try await fx.signIn(accessToken: Signer.widget(Self.fields()))
        #expect(identity.displayName == "Ada Lovelace" && identity.photoUrl == "https://t.me/i/userpic/320/ada.jpg")
    }

    @Test("a tampered field fails the hash")
    func tampered() async throws {
        let tampered = Signer.widget(Self.fields()).replacingOccurrences(of: "id=42", with: "id=43")
        let refusal = try #require(await fx.refusal(accessToken: tampered))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data hash does not match any configured bot")
        #expect(refusal.check == .signature)
    }

    @Test("an added field fails the hash: every received field is checked, not a fixed list")
    func addedField() async throws {
        let added = Signer.widget(Self.fields()) + "&is_admin=true"
        #expect(await fx.refusal(accessToken: added)?.check == .signature)
    }

    @Test("a field Telegram adds one day is signed like the others, so data carrying it still verifies")
    func unknownSignedField() async throws {
        let identity = try await fx.signIn(accessToken: Signer.widget(Self.fields(extra: [("allows_write_to_pm", "true")])))
        #expect(identity.subject == "42")
        #expect(identity.rawUserInfo?.contains(#""allows_write_to_pm":"true""#) == true)
    }

    @Test("data signed with another bot's token is refused")
    func otherBot() async throws {
        let foreign = Signer.widget(Self.fields(), token: "987654321:someone-elses-bot")
        #expect(await fx.refusal(accessToken: foreign)?.check == .signature)
    }

    @Test("the hash is compared as bytes: upper-case hex of the right HMAC passes, a different one fails")
    func hashCase() async throws {
        let fields = Self.fields(id: "44")
        let hash = Signer.hmacHex(fields, key: SHA256.hash(Vectors.widgetToken))
        #expect(try await fx.signIn(accessToken: FormURLEncoding.encode(fields + [("hash", hash.uppercased())])).subject == "44")
        var wrong = Array(hash)
        wrong[0] = wrong[0] == "0" ? "1" : "0"
        #expect(await fx.refusal(accessToken: FormURLEncoding.encode(fields + [("hash", String(wrong))]))?.check == .signature)
    }

    @Test("stale auth_date: older than the window (a day by default) is refused, the window's edge passes")
    func stale() async throws {
        let edge = Signer.widget(Self.fields(id: "50", authDate: fx.now - 86_400))
        #expect(try await fx.signIn(accessToken: edge).subject == "50")
        let stale = Signer.widget(Self.fields(id: "51", authDate: fx.now - 86_401))
        let refusal = try #require(await fx.refusal(accessToken: stale))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data is older than 1 day" && refusal.check == .age)
    }

    @Test("future auth_date beyond the clock skew is refused; within it passes")
    func future() async throws {
        #expect(try await fx.signIn(accessToken: Signer.widget(Self.fields(id: "60", authDate: fx.now + 60))).subject == "60")
        let future = Signer.widget(Self.fields(id: "61", authDate: fx.now + 61))
        let refusal = try #require(await fx.refusal(accessToken: future))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data has an auth_date in the future")
        #expect(refusal.check == .issuedAt)
    }

    @Test("a per-bot window applies to that bot's data")
    func perBotWindow() async throws {
        let fx = try TelegramFixture(now: Vectors.widgetAuthDate + 30) { $0.bots[0].authDateWindowSeconds = 3600 }
        let stale = Signer.widget(Self.fields(authDate: fx.now - 3601))
        #expect(await fx.refusal(accessToken: stale)?.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data is older than 1 hour")
    }

    @Test("replay: the same data is accepted once, also with its hash written in upper case")
    func replay() async throws {
        let fields = Self.fields(id: "70")
        let payload = Signer.widget(fields)
        _ = try await fx.signIn(accessToken: payload)
        let refusal = try #require(await fx.refusal(accessToken: payload))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : Duplicate credential received. Please try again with a new credential.")
        #expect(refusal.check == .replay)
        let hash = Signer.hmacHex(fields, key: SHA256.hash(Vectors.widgetToken))
        #expect(await fx.refusal(accessToken: FormURLEncoding.encode(fields + [("hash", hash.uppercased())]))?.check == .replay)
        #expect(fx.payloads.expiries == [(Vectors.widgetAuthDate + 86_400 + 60 + 1) * 1000])
    }

    @Test("a + in the query is a space, %2B a plus (form encoding, as the widget's redirect sends it)")
    func formDecoding() async throws {
        let payload = Signer.widget([("id", "80"), ("first_name", "Ada Mae+"), ("auth_date", String(Vectors.widgetAuthDate))])
        #expect(payload.contains("first_name=Ada+Mae%2B"))
        #expect(try await fx.signIn(accessToken: payload).displayName == "Ada Mae+")
    }

    @Test("format: no hash, a malformed hash, a field twice, no id, no auth_date")
    func format() async throws {
        #expect(await fx.refusal(accessToken: "id=1&auth_date=1")?.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data has no hash")
        #expect(await fx.refusal(accessToken: "id=1&hash=abc")?.check == .format)
        let twice = Signer.widget(Self.fields()) + "&id=43"
        #expect(await fx.refusal(accessToken: twice)?.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data has the field id twice")
        let noId = Signer.widget([("first_name", "Ada"), ("auth_date", String(Vectors.widgetAuthDate))])
        #expect(await fx.refusal(accessToken: noId)?.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data has no valid user id")
        let noDate = Signer.widget([("id", "42"), ("first_name", "Ada")])
        #expect(await fx.refusal(accessToken: noDate)?.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data has no valid auth_date")
        let negative = Signer.widget(Self.fields(id: "-5"))
        #expect(await fx.refusal(accessToken: negative)?.check == .format)
        let zero = Signer.widget(Self.fields(id: "0"))
        #expect(await fx.refusal(accessToken: zero)?.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data has no valid user id")
    }

    @Test("data longer than 16 KiB is refused before any HMAC, even when correctly signed")
    func tooLong() async throws {
        let long = Signer.widget(Self.fields(id: "45", extra: [("padding", String(repeating: "p", count: 16 * 1024))]))
        let refusal = try #require(await fx.refusal(accessToken: long))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data is too long" && refusal.check == .format)
    }

    @Test("a non-https photo_url is dropped, not handed on")
    func unsafePhoto() async throws {
        var fields = Self.fields(id: "90")
        fields[4] = ("photo_url", "javascript:alert(1)")
        #expect(try await fx.signIn(accessToken: Signer.widget(fields)).photoUrl == nil)
    }

    @Test("a bot with the widget switched off does not accept widget data")
    func widgetOff() async throws {
        let fx = try TelegramFixture(now: Vectors.widgetAuthDate + 30) { config in
            for index in config.bots.indices { config.bots[index].loginWidget = false }
        }
        let refusal = try #require(await fx.refusal(accessToken: Signer.widget(Vectors.widgetFields)))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : Telegram Login Widget data is not accepted: no configured bot allows it")
    }

    @Test("a disabled provider refuses before any check; no credential at all is `missing`")
    func disabledAndMissing() async throws {
        let off = try TelegramFixture { $0.enabled = false }
        #expect(await off.refusal(accessToken: Signer.widget(Vectors.widgetFields))?.message == "OPERATION_NOT_ALLOWED")
        #expect(await fx.refusal([:])?.check == .missing)
    }
}
