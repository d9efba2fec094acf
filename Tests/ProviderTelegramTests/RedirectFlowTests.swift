import AuthCore
import Crypto
import Foundation
import Outbound
import ProviderKit
import ProviderTelegram
import Testing
import WireFormats

@Suite("Telegram code flow with PKCE (redirect sign-in)")
struct TelegramRedirectFlowTests {
    let fx: TelegramFixture
    init() throws { fx = try TelegramFixture(now: 1_800_000_000) }

    static let request = AuthorizationRequest(redirectUri: "https://auth.example/__/auth/handler", state: "state-1",
                                              rawNonce: "raw-nonce-of-the-session-0123", codeVerifier: "v".padding(toLength: 43, withPad: "v", startingAt: 0),
                                              scopes: ["phone", "email", "openid"], customParameters: ["lang": "fa", "client_id": "evil"])

    static var binding: RedirectBinding {
        RedirectBinding(redirectUri: request.redirectUri, rawNonce: request.rawNonce, codeVerifier: request.codeVerifier)
    }

    func query(_ url: String) -> [String: String] {
        Dictionary(FormURLEncoding.decode(String(url.split(separator: "?", maxSplits: 1)[1])), uniquingKeysWith: { $1 })
    }

    func grant(_ code: String, claims: JSONObject? = nil) {
        let claims = claims ?? FakeTelegram.claims(bot: Vectors.miniAppBotId, nonce: Self.request.rawNonce, now: fx.now)
        fx.telegram.grant(code: code, .init(idToken: FakeTelegram.sign(claims), redirectUri: Self.request.redirectUri,
                                            codeChallenge: Self.request.codeChallenge))
    }

    func complete(code: String?, binding: RedirectBinding = Self.binding) async throws -> VerifiedIdentity {
        var parameters = ["providerId": "telegram.org", "state": "state-1"]
        parameters["code"] = code
        return try await fx.provider.completeRedirect(ProviderAssertion(parameters: parameters, requestUri: "http://localhost/done"),
                                                      binding: binding, context: TelegramFixture.context)
    }

    func refusal(code: String?, binding: RedirectBinding = Self.binding) async -> CredentialRefusal? {
        do { _ = try await complete(code: code, binding: binding); return nil } catch { return error as? CredentialRefusal }
    }

    @Test("the authorize URL: the bot with a client secret, openid profile + allowed scopes, state, hashed nonce, S256 challenge")
    func authorizationURL() throws {
        let url = try fx.provider.authorizationURL(Self.request)
        #expect(url.hasPrefix(FakeTelegram.baseURL + "/auth?"))
        let query = query(url)
        #expect(query["client_id"] == Vectors.miniAppBotId && query["response_type"] == "code")
        #expect(query["scope"] == "openid profile phone")
        #expect(query["redirect_uri"] == Self.request.redirectUri && query["state"] == "state-1")
        #expect(query["nonce"] == SHA256.hexDigest(Self.request.rawNonce))
        #expect(query["code_challenge"] == Self.request.codeChallenge && query["code_challenge_method"] == "S256")
        #expect(query["lang"] == "fa", "custom parameters pass, but never override the flow's own")
    }

    @Test("the code exchange sends Basic client auth, the redirect URI and the PKCE verifier, and signs the user in")
    func exchange() async throws {
        grant("code-1")
        let identity = try await complete(code: "code-1")
        #expect(identity.subject == "279058397")
        let token = try #require(fx.telegram.requests.first { $0.url == FakeTelegram.baseURL + "/token" })
        let basic = "Basic " + Base64.encode(Array("\(Vectors.miniAppBotId):web-login-secret".utf8))
        #expect(token.headers.contains { $0.0 == "Authorization" && $0.1 == basic })
        let form = Dictionary(FormURLEncoding.decode(String(decoding: token.body, as: UTF8.self)), uniquingKeysWith: { $1 })
        #expect(form["code_verifier"] == Self.request.codeVerifier && form["grant_type"] == "authorization_code")
        #expect(form["client_secret"] == nil, "the secret travels in the Authorization header only")
    }

    @Test("a wrong PKCE verifier makes Telegram refuse the code")
    func wrongVerifier() async throws {
        grant("code-2")
        var binding = Self.binding
        binding.codeVerifier = String(repeating: "w", count: 43)
        let refusal = try #require(await refusal(code: "code-2", binding: binding))
        #expect(refusal.check == .codeExchange)
        #expect(refusal.error.message == "INVALID_IDP_RESPONSE : Telegram refused the authorization code (invalid_grant)")
    }

    @Test("the returned token must carry the session's nonce")
    func sessionNonce() async throws {
        grant("code-3", claims: FakeTelegram.claims(bot: Vectors.miniAppBotId, nonce: "another-raw-nonce-0123456", now: fx.now))
        #expect(await refusal(code: "code-3")?.check == .nonce)
    }

    @Test("a token for another configured bot than the one that started the flow is refused")
    func otherBotsToken() async throws {
        grant("code-4", claims: FakeTelegram.claims(bot: Vectors.widgetBotId, nonce: Self.request.rawNonce, now: fx.now))
        #expect(await refusal(code: "code-4")?.check == .audience)
    }

    @Test("no code, and an unreachable token endpoint, are refusals, not crashes")
    func failures() async throws {
        #expect(await refusal(code: nil)?.check == .missing)
        fx.telegram.setReachable(false)
        #expect(await refusal(code: "code-5")?.error.message == "INVALID_IDP_RESPONSE : Telegram's token endpoint could not be reached; try again")
    }

    @Test("a token endpoint answering 5xx or 429 is Telegram unavailable, not a refused code")
    func tokenEndpointOutage() async throws {
        for status in [500, 502, 503, 429] {
            grant("code-\(status)")
            fx.telegram.setTokenStatus(status)
            let refusal = try #require(await refusal(code: "code-\(status)"))
            #expect(refusal.check == .providerUnavailable, "HTTP \(status)")
            #expect(refusal.error.message == "INVALID_IDP_RESPONSE : Telegram's token endpoint could not be reached; try again")
        }
        fx.telegram.setTokenStatus(nil)
        grant("code-back")
        #expect(try await complete(code: "code-back").subject == "279058397", "the code still works once Telegram is back")
    }

    @Test("without a bot holding a client secret there is no redirect flow")
    func noSecret() throws {
        let fx = try TelegramFixture { config in
            for index in config.bots.indices { config.bots[index].clientSecret = nil }
        }
        #expect(throws: AuthError.self) { try fx.provider.authorizationURL(Self.request) }
    }
}
