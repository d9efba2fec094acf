import AuthCore
import Outbound
@testable import ProviderFacebook
import ProviderKit
import Testing
import WireFormats

@Suite("Classic access tokens: debug_token, /me with appsecret_proof, and each check")
struct AccessTokenTests {
    let fx = FacebookFixture()

    func refusal(_ token: String) async -> CredentialRefusal? { await fx.refusal(["access_token": token]) }

    @Test("appsecret_proof is hex(HMAC-SHA256(app secret, token)) (vector computed with Python's hmac)")
    func proofVector() {
        #expect(AppSecretProof.proof(accessToken: "EAAB-user-token", appSecret: "app-secret-not-real")
                == "4346c5c3f905568064c690af14970b246660b39811715841a96747e73ab74ede")
    }

    @Test("a valid user token of this app signs in with the Graph profile, untrusted email and the token echoed")
    func validToken() async throws {
        fx.facebook.issue("tok-1")
        let identity = try await fx.signIn(accessToken: "tok-1")
        #expect(identity.providerId == .facebook && identity.subject == "10001")
        #expect(identity.email == .untrusted("ada@example.com"))
        #expect(identity.displayName == "Ada Lovelace" && identity.photoUrl == "https://cdn.example/ada.jpg")
        #expect(identity.echoedCredential == ["oauthAccessToken": "tok-1"])
        let raw = try #require(try JSONParser.parse(Array((identity.rawUserInfo ?? "").utf8)).objectValue)
        #expect(raw["id"] == "10001" && raw["first_name"] == "Ada" && raw["last_name"] == "Lovelace")
        #expect(raw["granted_scopes"] == ["public_profile", "email"] && raw["picture"]?["data"]?["url"] != nil)
    }

    @Test("debug_token is asked with the app access token; /me with the user token and appsecret_proof in the query")
    func whatIsSent() async throws {
        fx.facebook.issue("tok-1")
        _ = try await fx.signIn(accessToken: "tok-1")
        let debug = try #require(fx.facebook.query(of: "/debug_token"))
        #expect(debug["input_token"] == "tok-1" && debug["access_token"] == "\(FakeFacebook.appId)|\(FakeFacebook.appSecret)")
        let me = try #require(fx.facebook.query(of: "/me"))
        #expect(me["access_token"] == "tok-1" && me["fields"] == "id,name,first_name,last_name,email,picture.type(large)")
        #expect(me["appsecret_proof"] == AppSecretProof.proof(accessToken: "tok-1", appSecret: FakeFacebook.appSecret))
        #expect(fx.facebook.requests.allSatisfy { $0.method == "GET" && $0.body.isEmpty && $0.timeout == .seconds(5) })
        #expect(!fx.log.text.contains(FakeFacebook.appSecret) && !fx.log.text.contains("tok-1"))
    }

    @Test("is_valid: a token Facebook says is invalid is refused (token_rejected)")
    func invalid() async {
        fx.facebook.issue("tok-bad", .init(isValid: false, expiresAt: fx.now + 3600))
        let refused = await refusal("tok-bad")
        #expect(refused?.check == .tokenRejected && refused?.error.message == "INVALID_IDP_RESPONSE : Facebook access token is invalid")
        #expect(await refusal("never-issued")?.error.message == "INVALID_IDP_RESPONSE : Facebook access token is invalid (Graph error 190)")
    }

    @Test("app_id: a valid token minted for another app is refused (token substitution)")
    func otherApp() async {
        fx.facebook.issue("tok-other", .init(appId: "999"))
        let refused = await refusal("tok-other")
        #expect(refused?.check == .audience)
        #expect(refused?.error.message == "INVALID_IDP_RESPONSE : Facebook access token was issued to another app")
    }

    @Test("type: a page or app token is refused")
    func notUser() async {
        fx.facebook.issue("tok-page", .init(type: "PAGE"))
        #expect(await refusal("tok-page")?.check == .tokenType)
    }

    @Test("expiry: expired by expires_at, or by Facebook's subcode 463, is refused; 0 never expires")
    func expiry() async {
        fx.facebook.issue("tok-old", .init(expiresAt: fx.now))
        #expect(await refusal("tok-old")?.error.message == "INVALID_IDP_RESPONSE : Facebook access token has expired")
        fx.facebook.issue("tok-463", .init(isValid: false, errorSubcode: 463))
        #expect(await refusal("tok-463")?.check == .expiry)
        fx.facebook.issue("tok-later", .init(userId: "10002", expiresAt: fx.now + 1))
        #expect(await refusal("tok-later") == nil)
    }

    @Test("profile id: a /me answer about another user than the token's is refused")
    func subjectMismatch() async {
        fx.facebook.issue("tok-1")
        fx.facebook.setProfile("10001", FakeFacebook.profile(id: "20002"))
        let refused = await refusal("tok-1")
        #expect(refused?.check == .subjectMismatch)
        #expect(refused?.error.message == "INVALID_IDP_RESPONSE : Facebook profile does not belong to the access token's user")
    }

    @Test("a missing email is no email, not a failure")
    func missingEmail() async throws {
        fx.facebook.issue("tok-1", profile: FakeFacebook.profile(id: "10001", email: nil))
        let identity = try await fx.signIn(accessToken: "tok-1")
        #expect(identity.email == nil && identity.subject == "10001")
    }

    @Test("a request without access_token or id_token is refused before any call")
    func missing() async {
        #expect(await fx.refusal([:])?.check == .missing)
        #expect(await fx.refusal(["access_token": ""])?.check == .missing)
        #expect(await fx.refusal(["access_token": String(repeating: "x", count: 4097)])?.error.message
                == "INVALID_IDP_RESPONSE : access_token is too long")
        #expect(fx.facebook.requests.isEmpty)
    }

    @Test("Graph down, slow, failing or rate limiting is a clean refusal (provider_unavailable) and one warning")
    func outages() async {
        fx.facebook.issue("tok-1")
        let cases: [(FakeFacebook.Mode, String)] = [
            (.unreachable(.connectionFailed("refused")), "Facebook could not be reached; try again"),
            (.unreachable(.timedOut), "Facebook did not answer in time; try again"),
            (.status(503, graphCode: nil), "Facebook is unavailable or rate limiting this app (HTTP 503); try again later"),
            (.status(429, graphCode: nil), "Facebook is unavailable or rate limiting this app (HTTP 429); try again later"),
            (.status(400, graphCode: 4), "Facebook is unavailable or rate limiting this app (Graph error 4); try again later"),
            (.status(500, graphCode: 2), "Facebook is unavailable or rate limiting this app (Graph error 2); try again later"),
        ]
        for (mode, message) in cases {
            fx.facebook.setMode(mode)
            let refused = await refusal("tok-1")
            #expect(refused?.check == .providerUnavailable && refused?.error.message == "INVALID_IDP_RESPONSE : " + message)
        }
        #expect(fx.log.messages.filter { $0.hasPrefix("facebook graph un") }.count == cases.count)
    }

    @Test("a refused /me (token revoked meanwhile, or a wrong appsecret_proof) is token_rejected")
    func meRefused() async {
        fx.facebook.issue("tok-1")
        fx.facebook.setProfile("10001", [:])
        #expect(await refusal("tok-1")?.error.message == "INVALID_IDP_RESPONSE : Facebook returned a profile without an id")
        let wrongSecret = FacebookFixture { $0.appSecret = "wrong-secret" }
        wrongSecret.facebook.issue("tok-1")
        let refused = await wrongSecret.refusal(["access_token": "tok-1"])
        #expect(refused?.check == .tokenRejected)
        #expect(refused?.error.message == "INVALID_IDP_RESPONSE : Facebook refused to inspect the access token (Graph error 190)")
        #expect(wrongSecret.log.messages.contains { $0.contains("check facebook.appId and the app secret") })
    }

    @Test("a token revoked between debug_token and /me (Graph error 190 from /me) is refused as invalid or expired")
    func revokedBeforeProfile() async {
        var token = FakeFacebook.Token()
        token.revokedBeforeProfile = true
        fx.facebook.issue("tok-revoked", token)
        let refused = await refusal("tok-revoked")
        #expect(refused?.check == .tokenRejected)
        #expect(refused?.error.message == "INVALID_IDP_RESPONSE : Facebook access token is invalid or expired (Graph error 190)")
        #expect(fx.facebook.requests.map { $0.url.split(separator: "?").first.map(String.init) ?? "" }
                == [FakeFacebook.graph + "/v25.0/debug_token", FakeFacebook.graph + "/v25.0/me"], "debug_token passed first")
    }

    @Test("the /me call without the right appsecret_proof is refused by the stand-in (the proof is what it checks)")
    func proofIsChecked() async throws {
        fx.facebook.issue("tok-1")
        let wrong = OutboundRequest(url: FakeFacebook.graph + "/v25.0/me?access_token=tok-1&appsecret_proof=00")
        #expect(try await fx.facebook.send(wrong).status == 400)
    }

    @Test("Graph answers are read strictly: 5xx, 429 and rate-limit codes are transient; 4xx refused; non-JSON unreadable")
    func graphAnswers() {
        #expect(GraphAnswerProbe.read(500, "{}") == "unavailable")
        #expect(GraphAnswerProbe.read(429, "") == "unavailable")
        #expect(GraphAnswerProbe.read(400, #"{"error":{"code":613}}"#) == "unavailable")
        #expect(GraphAnswerProbe.read(400, #"{"error":{"code":80004}}"#) == "unavailable")
        #expect(GraphAnswerProbe.read(400, #"{"error":{"code":190}}"#) == "refused")
        #expect(GraphAnswerProbe.read(200, "<html>") == "unreadable")
        #expect(GraphAnswerProbe.read(200, #"{"error":{"code":100}}"#) == "unreadable")
        #expect(GraphAnswerProbe.read(200, #"{"id":"1"}"#) == "ok")
    }
}

/// `GraphAnswer.read`'s verdict in one word.
enum GraphAnswerProbe {
    static func read(_ status: Int, _ body: String) -> String {
        switch GraphAnswer.read(status: status, body: Array(body.utf8)) {
        case .success: "ok"
        case .failure(.unavailable): "unavailable"
        case .failure(.refused): "refused"
        case .failure(.unreadable): "unreadable"
        case .failure(.unreachable): "unreachable"
        }
    }
}
