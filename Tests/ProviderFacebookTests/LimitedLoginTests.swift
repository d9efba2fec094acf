import AuthCore
import Crypto
import Federation
@testable import ProviderFacebook
import ProviderKit
import Testing
import WireFormats

@Suite("Limited Login ID tokens: the policy, and each check through the provider")
struct LimitedLoginTests {
    let fx = FacebookFixture()
    var raw: String { FacebookFixture.nonce() }
    func claims(nonce: String? = nil) -> JSONObject {
        FakeFacebook.claims(nonce: nonce ?? SHA256.hexDigest(raw), now: fx.now)
    }
    func refusal(_ token: String, nonce: String?) async -> CredentialRefusal? {
        var parameters = ["id_token": token]
        parameters["nonce"] = nonce
        return await fx.refusal(parameters)
    }

    @Test("the policy: both Facebook issuers, the app ID, RS256 only, a required SHA-256 nonce, raw only by setting")
    func policy() {
        let policy = FacebookConfiguration(enabled: true, appId: "42").limitedLoginPolicy
        #expect(policy.issuers == ["https://www.facebook.com", "https://limited.facebook.com"])
        #expect(policy.audiences == ["42"] && policy.algorithms == [.rs256] && policy.provider == .facebook)
        #expect(policy.nonce == NonceRule(presence: .required, acceptsRawClaim: false))
        #expect(FacebookConfiguration(appId: "42", acceptsRawNonce: true).limitedLoginPolicy.nonce?.acceptsRawClaim == true)
    }

    @Test("a valid token signs in with its claims, untrusted email, and the token echoed as oauthIdToken")
    func valid() async throws {
        let token = FakeFacebook.sign(claims())
        let identity = try await fx.signIn(idToken: token, nonce: raw)
        #expect(identity.subject == "10001" && identity.email == .untrusted("ada@example.com"))
        #expect(identity.displayName == "Ada Lovelace" && identity.photoUrl == "https://cdn.example/ll.jpg")
        #expect(identity.echoedCredential == ["oauthIdToken": token])
        #expect(identity.rawUserInfo?.contains(#""given_name":"Ada""#) == true)
        #expect(fx.facebook.requests.map(\.url) == [FakeFacebook.limited + "/.well-known/oauth/openid/jwks/"])
    }

    @Test("the issuer limited.facebook.com passes; any other issuer fails")
    func issuer() async {
        var c = claims()
        c["iss"] = "https://limited.facebook.com"
        #expect(await refusal(FakeFacebook.sign(c), nonce: raw) == nil)
        c["iss"] = "https://evil.example"
        c["nonce"] = .string(SHA256.hexDigest(FacebookFixture.nonce(1)))
        #expect(await refusal(FakeFacebook.sign(c), nonce: FacebookFixture.nonce(1))?.error.message
                == "INVALID_IDP_RESPONSE : id_token issuer is not Facebook")
    }

    @Test("a bad signature is refused")
    func badSignature() async throws {
        let other = try RSAPrivateKey.generate()
        #expect(await refusal(FakeFacebook.sign(claims(), key: other), nonce: raw)?.check == .signature)
    }

    @Test("a token for another app is refused")
    func wrongAudience() async {
        var c = claims()
        c["aud"] = "999"
        #expect(await refusal(FakeFacebook.sign(c), nonce: raw)?.error.message
                == "INVALID_IDP_RESPONSE : id_token audience is not the configured Facebook app ID")
    }

    @Test("an expired token is refused")
    func expired() async {
        var c = claims()
        c["iat"] = .int(fx.now - 4000)
        c["exp"] = .int(fx.now - 100)
        #expect(await refusal(FakeFacebook.sign(c), nonce: raw)?.check == .expiry)
    }

    @Test("nonce: missing, mismatched, or raw in the token (unless allowed) is MISSING_OR_INVALID_NONCE")
    func nonce() async {
        let token = FakeFacebook.sign(claims())
        #expect(await refusal(token, nonce: nil)?.error.message == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
        var unbound = claims()
        unbound["nonce"] = nil
        #expect(await refusal(FakeFacebook.sign(unbound), nonce: nil)?.error.message
                == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.", "a token without a nonce is no exception")
        #expect(await refusal(token, nonce: FacebookFixture.nonce(2))?.check == .nonce)
        #expect(await refusal(FakeFacebook.sign(claims(nonce: raw)), nonce: raw)?.check == .nonce)
        let lenient = FacebookFixture { $0.acceptsRawNonce = true }
        #expect(await lenient.refusal(["id_token": FakeFacebook.sign(claims(nonce: raw)), "nonce": raw]) == nil)
    }

    @Test("a nonce is accepted once")
    func replay() async {
        let token = FakeFacebook.sign(claims())
        #expect(await refusal(token, nonce: raw) == nil)
        let again = await refusal(token, nonce: raw)
        #expect(again?.check == .replay && again?.error.code == .missingOrInvalidNonce)
    }

    @Test("an id_token is verified as Limited Login even when an access_token comes with it; Graph is not asked")
    func idTokenWins() async throws {
        let identity = try await fx.signIn(["id_token": FakeFacebook.sign(claims()), "nonce": raw, "access_token": "x"])
        #expect(identity.echoedCredential["oauthAccessToken"] == nil)
        #expect(fx.facebook.requests.allSatisfy { !$0.url.hasPrefix(FakeFacebook.graph) })
    }
}
