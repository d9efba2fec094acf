import AuthCore
import Crypto
import Testing
@testable import Gateway
import WireFormats

@Suite("session cookies: createSessionCookie and the published cookie keys")
struct SessionCookieTests {
    static func create(_ gw: TestGateway, _ body: JSONObject) async -> TestGateway.Reply {
        await gw.post("\(TestGateway.v1)/projects/test-project:createSessionCookie", .object(body), key: nil,
                      headers: TestGateway.adminHeaders)
    }

    @Test("a cookie carries the ID token's claims under the session issuer, lives as asked, and verifies with published keys")
    func cookieShapeAndKeys() async throws {
        let gw = try await TestGateway.make()
        let session = await gw.signUpAnonymously()
        let idToken = try #require(session["idToken"]?.stringValue)
        gw.time.advance(seconds: 10)
        let cookie = try #require(await Self.create(gw, ["idToken": .string(idToken), "validDuration": 3600])["sessionCookie"]?.stringValue)
        let claims = TestGateway.claims(cookie)
        #expect(claims["iss"] == "https://session.firebase.google.com/test-project")
        #expect(claims["aud"] == "test-project" && claims["sub"] == session["localId"])
        #expect(claims["iat"]?.intValue == gw.nowSeconds && claims["exp"]?.intValue == gw.nowSeconds + 3600)
        #expect(claims["firebase"]?["sign_in_provider"] == "anonymous")
        let jws = try CompactJWS(parsing: cookie)
        let published = await gw.send("GET", Routes.sessionCookieX509Path)
        let kid = try #require(jws.header.kid)
        let certificate = try #require(published[kid]?.stringValue)
        let key = try RSAPublicKey(pem: try X509.publicKeyPEM(fromCertificatePEM: certificate))
        #expect(jws.isSignatureValid(using: .rs256(key)))
        let jwks = await gw.send("GET", "\(TestGateway.v1)/sessionCookiePublicKeys")
        #expect(jwks["keys"]?.arrayValue?.contains { $0["kid"]?.stringValue == jws.header.kid } == true)
        // Not an ID token: the gateway's own ID-token check refuses it.
        #expect(await gw.lookup(cookie).error == "INVALID_ID_TOKEN")
        // Two weeks when no duration is given.
        let longest = try #require(await Self.create(gw, ["idToken": .string(idToken)])["sessionCookie"]?.stringValue)
        #expect(TestGateway.claims(longest)["exp"]?.intValue == gw.nowSeconds + 1_209_600)
    }

    @Test("durations outside five minutes to two weeks, and missing, bad or revoked ID tokens are refused")
    func refusals() async throws {
        let gw = try await TestGateway.make()
        let session = await gw.signUpAnonymously()
        let idToken = try #require(session["idToken"]?.stringValue)
        for duration: JSONValue in [299, 1_209_601, "1", "soon"] {
            #expect(await Self.create(gw, ["idToken": .string(idToken), "validDuration": duration]).error == "INVALID_DURATION")
        }
        #expect(await Self.create(gw, ["validDuration": 3600]).error == "MISSING_ID_TOKEN")
        #expect(await Self.create(gw, ["idToken": "x.y.z"]).error == "INVALID_ID_TOKEN")
        gw.time.advance(seconds: 1)
        _ = await gw.admin("update", ["localId": .string(try #require(session["localId"]?.stringValue)),
                                      "validSince": .int(gw.nowSeconds)])
        #expect(await Self.create(gw, ["idToken": .string(idToken)]).error == "TOKEN_EXPIRED")
        #expect(await gw.post("\(TestGateway.v1)/projects/test-project:createSessionCookie", ["idToken": .string(idToken)]).status == 400)
        #expect(await gw.post("\(TestGateway.v1)/projects/other:createSessionCookie", ["idToken": .string(idToken)], key: nil,
                              headers: TestGateway.adminHeaders).status == 404)
    }
}
