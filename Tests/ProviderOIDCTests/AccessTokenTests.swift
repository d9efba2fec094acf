import AuthCore
import OIDCTestSupport
import ProviderKit
@testable import ProviderOIDC
import Testing
import WireFormats

/// `signInWithIdp` with an `access_token`: the provider must vouch for it, and say whose app it belongs to.
@Suite("OIDC access_token sign-in")
struct AccessTokenTests {
    @Test("without a token-info endpoint, UserInfo alone is not trusted unless switched on")
    func userInfoNeedsOptIn() async throws {
        let off = OIDCFixture()
        off.issuer.grantAccessToken("at-1", userInfo: ["sub": "u1", "email": "u1@example.com"])
        let refusal = await off.refusal { try await off.signIn(["access_token": "at-1"]) }
        #expect(refusal?.check == .accessToken)
        #expect(off.issuer.requests(to: "/userinfo").isEmpty, "refused before asking anyone")

        let on = OIDCFixture { $0.acceptsUserInfoAccessTokens = true }
        on.issuer.grantAccessToken("at-1", userInfo: ["sub": "u1", "email": "u1@example.com", "email_verified": true, "name": "U"])
        let identity = try await on.signIn(["access_token": "at-1"])
        #expect(identity.subject == "u1" && identity.displayName == "U")
        #expect(identity.echoedCredential == ["oauthAccessToken": "at-1"])
        let sent = try #require(on.issuer.requests(to: "/userinfo").first)
        #expect(sent.headers.contains { $0 == ("Authorization", "Bearer at-1") })
    }

    @Test("a token UserInfo refuses, and an unreachable provider, are refused (the outage is logged)")
    func userInfoRefuses() async {
        let f = OIDCFixture { $0.acceptsUserInfoAccessTokens = true }
        #expect(await f.refusedCheck { try await f.signIn(["access_token": "unknown"]) } == .accessToken)
        f.issuer.grantAccessToken("at-2", userInfo: ["email": "no-subject@example.com"])
        #expect(await f.refusedCheck { try await f.signIn(["access_token": "at-2"]) } == .format)
        _ = await f.refusedCheck { try await f.signIn(["id_token": FakeOIDCIssuer.sign(f.issuer.claims(now: f.now))]) }
        f.issuer.setReachable(false)
        #expect(await f.refusedCheck { try await f.signIn(["access_token": "at-3"]) } == .accessToken)
        #expect(f.log.warnings("oidc endpoint unreachable") == 1)
    }

    @Test("token info: the audience must be a configured client, the token unexpired, UserInfo the same user")
    func tokenInfo() async throws {
        let f = OIDCFixture { $0.endpoints = .init(userInfo: "https://idp.test/userinfo", tokenInfo: "https://idp.test/tokeninfo") }
        let good: JSONObject = ["aud": .string(f.issuer.clientId), "sub": "g1", "exp": .string(String(f.now + 600)),
                                "email": "g1@gmail.com", "email_verified": "true"]
        f.issuer.grantAccessToken("ok", userInfo: ["sub": "g1", "name": "Gee", "picture": "https://p.example/g1"], tokenInfo: good)
        let identity = try await f.signIn(["access_token": "ok"])
        #expect(identity.subject == "g1" && identity.displayName == "Gee" && identity.photoUrl == "https://p.example/g1")
        #expect(identity.email?.address == "g1@gmail.com" && identity.email?.isVerified == true)
        let asked = try #require(f.issuer.requests(to: "/tokeninfo").first)
        #expect(asked.method == "POST" && !asked.url.contains("access_token"), "the token travels in the body, not the URL")

        var otherApp = good
        otherApp["aud"] = "another-app"
        f.issuer.grantAccessToken("foreign", userInfo: ["sub": "g1"], tokenInfo: otherApp)
        #expect(await f.refusedCheck { try await f.signIn(["access_token": "foreign"]) } == .audience)

        var expired = good
        expired["exp"] = .string(String(f.now - 120))
        f.issuer.grantAccessToken("expired", userInfo: ["sub": "g1"], tokenInfo: expired)
        #expect(await f.refusedCheck { try await f.signIn(["access_token": "expired"]) } == .expiry)

        f.issuer.grantAccessToken("mixed", userInfo: ["sub": "someone-else"], tokenInfo: good)
        #expect(await f.refusedCheck { try await f.signIn(["access_token": "mixed"]) } == .accessToken)
        #expect(await f.refusedCheck { try await f.signIn(["access_token": "never-issued"]) } == .accessToken)
    }

    @Test("an id_token wins over an access_token sent with it, and both are echoed")
    func both() async throws {
        let f = OIDCFixture()
        let token = FakeOIDCIssuer.sign(f.issuer.claims(now: f.now))
        let identity = try await f.signIn(["id_token": token, "access_token": "at-x"])
        #expect(identity.echoedCredential == ["oauthIdToken": token, "oauthAccessToken": "at-x"])
        #expect(f.issuer.requests(to: "/userinfo").isEmpty)
    }
}
