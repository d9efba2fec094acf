import AppleTestSupport
import AuthCore
import Crypto
import ProviderApple
import Testing
import WireFormats
import ProviderKit

@Suite("Apple identity token checks: each one rejects what it exists for")
struct TokenVerificationTests {
    let fx: AppleFixture
    init() throws { fx = try AppleFixture() }
    var claims: JSONObject { FakeApple.claims(nonce: AppleFixture.nonce(), now: fx.now) }

    @Test("a token Apple signed for a configured bundle ID signs the user in")
    func validToken() async throws {
        let token = FakeApple.sign(claims)
        let identity = try await fx.signIn(token)
        #expect(identity.providerId == .apple && identity.subject == "001234.apple.user")
        #expect(identity.echoedCredential["oauthIdToken"] == token && identity.photoUrl == nil)
        #expect(identity.rawUserInfo?.contains("\"sub\":\"001234.apple.user\"") == true)
    }

    @Test("a kid outside Apple's set is refused")
    func unknownKid() async {
        #expect(await fx.failure(FakeApple.sign(claims, kid: "k-forged"))
                == "INVALID_IDP_RESPONSE : id_token was signed with a key Apple does not publish")
    }

    @Test("alg none is refused")
    func algNone() async {
        let token = FakeApple.forge(claims, header: ["alg": "none", "kid": "k1"]) { _ in [] }
        #expect(await fx.failure(token) == "INVALID_IDP_RESPONSE : id_token must be signed with RS256, not none")
    }

    @Test("HS256 keyed with Apple's public key is refused")
    func hs256WithPublicKey() async throws {
        let pem = Array(try FakeApple.primaryKey.publicKey.spkiPEM().utf8)
        let token = FakeApple.forge(claims, header: ["alg": "HS256", "kid": "k1"]) {
            HMACSHA256.authenticate(key: pem, message: $0)
        }
        #expect(await fx.failure(token) == "INVALID_IDP_RESPONSE : id_token must be signed with RS256, not HS256")
    }

    @Test("a signature by another key under Apple's kid is refused")
    func badSignature() async {
        #expect(await fx.failure(FakeApple.sign(claims, key: FakeApple.rotatedKey))
                == "INVALID_IDP_RESPONSE : id_token signature is invalid")
    }

    @Test("issuer: both Apple issuers pass, anything else fails")
    func issuer() async {
        var c = claims
        c["iss"] = "https://account.apple.com"
        #expect(await fx.failure(FakeApple.sign(c)) == nil)
        c["iss"] = "https://evil.example"
        c["nonce"] = .string(SHA256.hexDigest(AppleFixture.nonce(1)))
        #expect(await fx.failure(FakeApple.sign(c), nonce: AppleFixture.nonce(1)) == "INVALID_IDP_RESPONSE : id_token issuer is not Apple")
    }

    @Test("audience: bundle IDs and Services IDs pass, another app's token fails")
    func audience() async {
        #expect(await fx.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(2), now: fx.now,
                                                                 aud: FakeApple.servicesId)), nonce: AppleFixture.nonce(2)) == nil)
        let other = FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(3), now: fx.now, aud: "com.other.app"))
        #expect(await fx.failure(other, nonce: AppleFixture.nonce(3))
                == "INVALID_IDP_RESPONSE : id_token audience is not a configured bundle ID or Services ID")
    }

    @Test("expired, issued in the future, and older than ten minutes are refused")
    func timeChecks() async {
        var expired = claims
        expired["iat"] = .int(fx.now - 300)
        expired["exp"] = .int(fx.now - 61)
        #expect(await fx.failure(FakeApple.sign(expired)) == "INVALID_IDP_RESPONSE : id_token has expired")
        var future = claims
        future["iat"] = .int(fx.now + 61)
        #expect(await fx.failure(FakeApple.sign(future)) == "INVALID_IDP_RESPONSE : id_token was issued in the future")
        var old = claims
        old["iat"] = .int(fx.now - 601)
        old["exp"] = .int(fx.now + 600)
        #expect(await fx.failure(FakeApple.sign(old)) == "INVALID_IDP_RESPONSE : id_token is older than 10 minutes")
        var skewed = claims
        skewed["exp"] = .int(fx.now - 30)
        skewed["iat"] = .int(fx.now - 500)
        #expect(await fx.failure(FakeApple.sign(skewed)) == nil, "within the clock skew")
    }

    @Test("the raw nonce is required, 16-256 characters, and must hash to the claim")
    func nonceChecks() async {
        let token = FakeApple.sign(claims)
        #expect(await fx.failure(token, nonce: nil) == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
        #expect(await fx.failure(token, nonce: "short") == "MISSING_OR_INVALID_NONCE : The raw nonce must be 16 to 256 characters.")
        #expect(await fx.failure(token, nonce: String(repeating: "n", count: 257))
                == "MISSING_OR_INVALID_NONCE : The raw nonce must be 16 to 256 characters.")
        #expect(await fx.failure(token, nonce: AppleFixture.nonce(9))
                == "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
        var noClaim = claims
        noClaim["nonce"] = nil
        #expect(await fx.failure(FakeApple.sign(noClaim))?.hasPrefix("MISSING_OR_INVALID_NONCE : The ID token has no nonce claim") == true)
    }

    @Test("a token without a subject is refused")
    func missingSubject() async {
        var c = claims
        c["sub"] = ""
        #expect(await fx.failure(FakeApple.sign(c)) == "INVALID_IDP_RESPONSE : id_token has no subject")
    }

    @Test("garbage and a missing id_token are refused as unparsable")
    func unparsable() async throws {
        #expect(await fx.failure("not.a.jwt") == "INVALID_IDP_RESPONSE : Unable to parse id_token: not a compact JWS")
        await #expect(throws: CredentialRefusal(.apple, .missing, AuthError(.invalidIdpResponse,
                                                                           "id_token is missing; Apple sign-in needs the identity token"))) {
            _ = try await fx.provider.verify(ProviderAssertion(parameters: ["providerId": "apple.com"], requestUri: "http://localhost"),
                                             context: RequestContext(clientAddress: "", receivedAt: 0, projectId: ""))
        }
    }

    @Test("a nonce is accepted once")
    func replay() async {
        let token = FakeApple.sign(claims)
        #expect(await fx.failure(token) == nil)
        #expect(await fx.failure(token)
                == "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")
    }

    @Test("each refusal names the check that failed, for the gateway's log")
    func refusalsNameTheirCheck() async throws {
        func signed(_ change: (inout JSONObject) -> Void, nonce seed: Int) -> String {
            var c = FakeApple.claims(nonce: AppleFixture.nonce(seed), now: fx.now)
            change(&c)
            return FakeApple.sign(c)
        }
        let now = fx.now
        let cases: [(String, Int, CredentialCheck)] = [
            ("not.a.jwt", 0, .format),
            (FakeApple.forge(claims, header: ["alg": "none", "kid": "k1"]) { _ in [] }, 0, .algorithm),
            (FakeApple.sign(claims, kid: "k-forged"), 0, .unknownKey),
            (FakeApple.sign(claims, key: FakeApple.rotatedKey), 0, .signature),
            (signed({ $0["sub"] = "" }, nonce: 1), 1, .format),
            (signed({ $0["iss"] = "https://evil.example" }, nonce: 2), 2, .issuer),
            (signed({ $0["aud"] = "com.other.app" }, nonce: 3), 3, .audience),
            (signed({ $0["iat"] = .int(now - 300); $0["exp"] = .int(now - 61) }, nonce: 4), 4, .expiry),
            (signed({ $0["iat"] = .int(now + 61) }, nonce: 5), 5, .issuedAt),
            (signed({ $0["iat"] = .int(now - 601); $0["exp"] = .int(now + 600) }, nonce: 6), 6, .age),
            (signed({ _ in }, nonce: 7), 9, .nonce),
        ]
        for (token, nonce, check) in cases {
            #expect(await fx.refusedCheck(token, nonce: AppleFixture.nonce(nonce)) == check, "expected \(check)")
        }
        #expect(await fx.refusedCheck(FakeApple.sign(claims), nonce: nil) == .nonce)
        let once = signed({ _ in }, nonce: 8)
        #expect(await fx.refusedCheck(once, nonce: AppleFixture.nonce(8)) == nil)
        #expect(await fx.refusedCheck(once, nonce: AppleFixture.nonce(8)) == .replay)
    }

    @Test("a disabled provider answers OPERATION_NOT_ALLOWED before looking at the token")
    func disabled() async throws {
        let off = try AppleFixture(enabled: false)
        #expect(await off.failure("garbage") == "OPERATION_NOT_ALLOWED")
        #expect(off.apple.requests.isEmpty)
    }
}
