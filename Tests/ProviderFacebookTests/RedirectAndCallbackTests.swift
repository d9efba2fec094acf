import AuthCore
import Crypto
@testable import ProviderFacebook
import ProviderKit
import Testing
import WireFormats

@Suite("Web login through the OAuth dialog, and the deauthorize and data-deletion callbacks")
struct RedirectAndCallbackTests {
    let fx = FacebookFixture()
    static let redirectUri = "https://auth.example.com/__/auth/handler"

    func request(scopes: [String] = [], custom: [String: String] = [:]) -> AuthorizationRequest {
        AuthorizationRequest(redirectUri: Self.redirectUri, state: "state-1", rawNonce: FacebookFixture.nonce(),
                             codeVerifier: "verifier-0123456789-0123456789-0123456789", scopes: scopes, customParameters: custom)
    }

    func complete(_ parameters: [String: String], verifier: String = "verifier-0123456789-0123456789-0123456789")
        async throws -> VerifiedIdentity {
        try await fx.provider.completeRedirect(ProviderAssertion(parameters: parameters, requestUri: "https://app/finish"),
                                               binding: RedirectBinding(redirectUri: Self.redirectUri,
                                                                        rawNonce: FacebookFixture.nonce(), codeVerifier: verifier),
                                               context: FacebookFixture.context)
    }

    @Test("the dialog URL names the app, the handler, the state, the scopes and the PKCE challenge")
    func authorizationURL() throws {
        let url = try fx.provider.authorizationURL(request(scopes: ["user_birthday", "email"], custom: ["display": "popup",
                                                                                                      "client_id": "evil"]))
        #expect(url.hasPrefix(FakeFacebook.dialog + "/v25.0/dialog/oauth?"))
        var query: [String: String] = [:]
        for (k, v) in FormURLEncoding.decode(String(url.split(separator: "?")[1])) { query[k] = v }
        #expect(query["client_id"] == FakeFacebook.appId && query["redirect_uri"] == Self.redirectUri)
        #expect(query["state"] == "state-1" && query["response_type"] == "code" && query["display"] == "popup")
        #expect(query["scope"] == "public_profile,email,user_birthday")
        #expect(query["code_challenge"] == request().codeChallenge && query["code_challenge_method"] == "S256")
    }

    @Test("the code is exchanged with the app secret, redirect URI and PKCE verifier, then the classic checks run")
    func codeExchange() async throws {
        fx.facebook.issue("web-token", .init(userId: "30003"))
        fx.facebook.acceptCode("code-1", for: "web-token", verifier: "verifier-0123456789-0123456789-0123456789")
        let identity = try await complete(["code": "code-1", "state": "state-1"])
        #expect(identity.subject == "30003" && identity.echoedCredential == ["oauthAccessToken": "web-token"])
        let exchange = try #require(fx.facebook.query(of: "/oauth/access_token"))
        #expect(exchange["client_secret"] == FakeFacebook.appSecret && exchange["redirect_uri"] == Self.redirectUri)
        #expect(fx.facebook.query(of: "/debug_token")?["input_token"] == "web-token")
    }

    @Test("a refused code, a wrong verifier or no code at all is a refusal")
    func exchangeFailures() async throws {
        fx.facebook.issue("web-token")
        fx.facebook.acceptCode("code-2", for: "web-token", verifier: "another-verifier")
        await #expect(throws: CredentialRefusal.self) { try await complete(["code": "code-2"]) }
        do {
            _ = try await complete(["code": "unknown"])
            Issue.record("an unknown code signed in")
        } catch let refusal as CredentialRefusal {
            #expect(refusal.check == .codeExchange
                    && refusal.error.message == "INVALID_IDP_RESPONSE : Facebook refused the authorization code (Graph error 100)")
        }
        do {
            _ = try await complete([:])
            Issue.record("no code signed in")
        } catch let refusal as CredentialRefusal {
            #expect(refusal.check == .missing)
        }
        let before = fx.facebook.requests.count
        do {
            _ = try await complete(["code": String(repeating: "c", count: 4097)])
            Issue.record("a 4 KiB code was sent on")
        } catch let refusal as CredentialRefusal {
            #expect(refusal.check == .format && refusal.error.message == "INVALID_IDP_RESPONSE : code is too long")
        }
        #expect(fx.facebook.requests.count == before, "refused before any call to Facebook")
    }

    @Test("data deletion: a verified request becomes deletionRequested, answered with a status URL and code")
    func deletion() async throws {
        let signed = FacebookFixture.signedRequest(fx.callbackPayload())
        let delivery = try await fx.callback("deletion", signedRequest: signed)
        #expect(delivery.events == [.deletionRequested(subject: "10001")] && delivery.label == "data-deletion")
        #expect(delivery.deliveryId == "deletion:" + Hex.encode(SHA256.hash(signed)))
        let reply = try await delivery.reply([.userDeleted])
        let body = try #require(try JSONParser.parse(reply.body).objectValue)
        let code = try #require(body["confirmation_code"]?.stringValue)
        #expect(body["url"]?.stringValue == "https://auth.example.com/gatehouse/v1/providers/facebook.com/deletion?code=\(code)")
        let page = try await fx.provider.page(ProviderHTTPRequest(method: "GET", page: "deletion", query: [("code", code)]),
                                              context: FacebookFixture.context)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status == 200 && html.contains(code) && html.contains("Your account was deleted together with"))

        // Facebook retries: the same request gets the same code, and the page still says what was done.
        let again = try await fx.callback("deletion", signedRequest: signed)
        let second = try #require(try JSONParser.parse(try await again.reply([.duplicate]).body).objectValue)
        #expect(second["confirmation_code"]?.stringValue == code)
        let still = try await fx.provider.page(ProviderHTTPRequest(method: "GET", page: "deletion", query: [("code", code)]),
                                               context: FacebookFixture.context)
        #expect(String(decoding: still.body, as: UTF8.self).contains("Your account was deleted together with"))
    }

    @Test("the status page says what each outcome deleted; unknown codes and pages are not found")
    func statusPage() async throws {
        for (outcome, words) in [(AccountEventOutcome.unlinked, "Your account itself stays"),
                                 (.unknownSubject, "We held no data for this Facebook account")] {
            let payload = fx.callbackPayload(userId: "u-\(outcome.rawValue)")
            let delivery = try await fx.callback("deletion", signedRequest: FacebookFixture.signedRequest(payload))
            let body = try #require(try JSONParser.parse(try await delivery.reply([outcome]).body).objectValue)
            let code = try #require(body["confirmation_code"]?.stringValue)
            let page = try await fx.provider.page(ProviderHTTPRequest(method: "GET", page: "deletion", query: [("code", code)]),
                                                  context: FacebookFixture.context)
            #expect(String(decoding: page.body, as: UTF8.self).contains(words))
        }
        let unknown = try await fx.provider.page(ProviderHTTPRequest(method: "GET", page: "deletion", query: [("code", "nope")]),
                                                 context: FacebookFixture.context)
        #expect(unknown.status == 404)
        await #expect(throws: ProviderPageError.notFound) {
            try await fx.provider.page(ProviderHTTPRequest(method: "GET", page: "other"), context: FacebookFixture.context)
        }
    }

    @Test("deauthorize becomes identityRevoked and answers an empty object")
    func deauthorize() async throws {
        let delivery = try await fx.callback("deauthorize", signedRequest: FacebookFixture.signedRequest(fx.callbackPayload()))
        #expect(delivery.events == [.identityRevoked(subject: "10001")] && delivery.label == "deauthorize")
        #expect(try await delivery.reply([.unlinked]) == .json([:]))
        #expect(fx.records.count == 0)
    }

    @Test("forged, malformed, stale or unlabelled callbacks are refused before anything is applied")
    func refusedCallbacks() async {
        let good = FacebookFixture.signedRequest(fx.callbackPayload())
        let cases: [(String?, String?, CredentialCheck)] = [
            ("deletion", FacebookFixture.signedRequest(fx.callbackPayload(), secret: "forged"), .signature),
            ("deletion", "not-a-signed-request", .format),
            ("deletion", FacebookFixture.signedRequest(fx.callbackPayload(algorithm: "HMAC-MD5")), .algorithm),
            ("deauthorize", FacebookFixture.signedRequest(fx.callbackPayload(issuedAt: fx.now - 86_401)), .age),
            ("deletion", nil, .missing),
            (nil, good, .missing),
            ("other", good, .missing),
        ]
        for (kind, signed, check) in cases {
            do {
                _ = try await fx.callback(kind, signedRequest: signed)
                Issue.record("\(kind ?? "-") \(signed ?? "-") was accepted")
            } catch let refusal as CredentialRefusal {
                #expect(refusal.check == check && refusal.error.code == .invalidIdpResponse)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }
}
