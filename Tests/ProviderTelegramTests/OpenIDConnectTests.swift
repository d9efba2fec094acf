import AuthCore
import Crypto
import Foundation
import ProviderKit
@testable import ProviderTelegram
import Testing
import WireFormats

@Suite("Telegram OpenID Connect ID tokens")
struct OpenIDConnectTests {
    let fx: TelegramFixture
    init() throws { fx = try TelegramFixture(now: 1_800_000_000) }

    static func nonce(_ seed: Int = 0) -> String { "telegram-raw-nonce-\(seed)-0123456789" }

    func claims(nonce seed: Int = 0, bot: String = Vectors.miniAppBotId) -> JSONObject {
        FakeTelegram.claims(bot: bot, nonce: Self.nonce(seed), now: fx.now)
    }

    func signIn(_ token: String, nonce seed: Int = 0) async throws -> VerifiedIdentity {
        try await fx.signIn(["id_token": token, "nonce": Self.nonce(seed)])
    }

    func refusal(_ token: String, nonce: String? = OpenIDConnectTests.nonce()) async -> (message: String, check: CredentialCheck?)? {
        var parameters = ["id_token": token]
        parameters["nonce"] = nonce
        return await fx.refusal(parameters)
    }

    @Test("a valid token signs in as the numeric id claim; sub, name, username and picture come along; no email")
    func valid() async throws {
        var claims = claims()
        claims["email"] = "made-up@telegram.invalid"
        claims["phone_number"] = "971577777777"
        let token = FakeTelegram.sign(claims)
        let identity = try await signIn(token)
        #expect(identity.subject == "279058397" && identity.providerId == .telegram)
        #expect(identity.email == nil, "Telegram gives no email; a claim that looks like one is ignored")
        #expect(identity.displayName == "Ada Lovelace" && identity.screenName == "ada")
        #expect(identity.photoUrl == "https://t.me/i/userpic/320/ada.jpg")
        #expect(identity.echoedCredential == ["oauthIdToken": token])
        let raw = try #require(identity.rawUserInfo.flatMap { try? JSONParser.parse($0) })
        #expect(raw["sub"] == "1234123412341234123" && raw["id"] == .int(279_058_397))
        #expect(raw["phone_number"] == "+971577777777", "phone kept normalised to E.164")
        #expect(identity.phoneNumber == "+971577777777", "and kept with the identity, for the gateway to store")
    }

    @Test("a token for either configured bot is accepted (the bot id is the OIDC client id)")
    func eitherBot() async throws {
        #expect(try await signIn(FakeTelegram.sign(claims(bot: Vectors.widgetBotId))).subject == "279058397")
    }

    @Test("a signature by another key is refused")
    func badSignature() async throws {
        let refusal = try #require(await refusal(FakeTelegram.sign(claims(), key: FakeTelegram.otherKey)))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : id_token signature is invalid" && refusal.check == .signature)
    }

    @Test("a token for a bot that is not configured is refused")
    func wrongAudience() async throws {
        let refusal = try #require(await refusal(FakeTelegram.sign(claims(bot: "999"))))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : id_token audience is not a configured Telegram bot id")
        #expect(refusal.check == .audience)
    }

    @Test("a token from another issuer is refused")
    func wrongIssuer() async throws {
        var claims = claims()
        claims["iss"] = "https://oauth.telegram.org.evil"
        #expect(await refusal(FakeTelegram.sign(claims))?.message == "INVALID_IDP_RESPONSE : id_token issuer is not Telegram")
    }

    @Test("nonce: a different raw nonce, or none, is refused")
    func nonceMismatch() async throws {
        let token = FakeTelegram.sign(claims())
        let refusal = try #require(await refusal(token, nonce: Self.nonce(9)))
        #expect(refusal.message == "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
        #expect(await self.refusal(token, nonce: nil)?.message == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
    }

    @Test("replay: a nonce is accepted once")
    func replay() async throws {
        let token = FakeTelegram.sign(claims())
        _ = try await signIn(token)
        let refusal = try #require(await refusal(token))
        #expect(refusal.check == .replay)
        #expect(refusal.message == "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")
    }

    @Test("the raw nonce in the claim is refused unless acceptRawNonce is set")
    func rawNonce() async throws {
        var claims = claims()
        claims["nonce"] = .string(Self.nonce())
        #expect(await refusal(FakeTelegram.sign(claims))?.check == .nonce)
        let lenient = try TelegramFixture(now: fx.now) { $0.acceptRawNonce = true }
        #expect(try await lenient.signIn(["id_token": FakeTelegram.sign(claims), "nonce": Self.nonce()]).subject == "279058397")
    }

    @Test("a token without the numeric id claim is refused (sub is opaque and never the federated id)")
    func missingId() async throws {
        var claims = claims()
        claims["id"] = nil
        let refusal = try #require(await refusal(FakeTelegram.sign(claims)))
        #expect(refusal.message == "INVALID_IDP_RESPONSE : id_token has no Telegram user id (the id claim)" && refusal.check == .format)
    }

    @Test("an expired or too old token is refused")
    func times() async throws {
        var expired = claims(nonce: 1)
        expired["exp"] = .int(fx.now - 61)
        #expect(await refusal(FakeTelegram.sign(expired), nonce: Self.nonce(1))?.check == .expiry)
        var old = claims(nonce: 2)
        old["iat"] = .int(fx.now - 601)
        #expect(await refusal(FakeTelegram.sign(old), nonce: Self.nonce(2))?.check == .age)
    }

    @Test("an id_token wins over an access_token sent next to it (Telegram's OAuth access token is not signed data)")
    func idTokenFirst() async throws {
        let identity = try await fx.signIn(["id_token": FakeTelegram.sign(claims()), "nonce": Self.nonce(), "access_token": "at"])
        #expect(identity.subject == "279058397")
    }
}

@Suite("Phone numbers to E.164")
struct PhoneNumberTests {
    @Test("Telegram's digits-only form, a + form and formatted forms normalise; nonsense is dropped")
    func normalise() {
        #expect(PhoneNumber.e164("971577777777") == "+971577777777")
        #expect(PhoneNumber.e164("+98 912 345 6789") == "+989123456789")
        #expect(PhoneNumber.e164("0098-912-345-6789") == "+989123456789")
        #expect(PhoneNumber.e164("(1) 555.000.0000") == "+15550000000")
        #expect(PhoneNumber.e164("0912345678") == nil)
        #expect(PhoneNumber.e164("1234567") == nil)
        #expect(PhoneNumber.e164("1234567890123456") == nil)
        #expect(PhoneNumber.e164("+98912abc6789") == nil)
        #expect(PhoneNumber.e164("٩٨٩١٢٣٤٥٦٧٨٩") == nil, "non-ASCII digits are not E.164")
    }
}
