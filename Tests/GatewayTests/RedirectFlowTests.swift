import AppleTestSupport
import AuthCore
import Foundation
import Outbound
import Storage
import Testing
@testable import Gateway
import WireFormats

@Suite("Redirect sign-in: createAuthUri -> provider -> /__/auth/handler -> signInWithIdp with sessionId", .serialized)
struct RedirectFlowTests {
    let apple = FakeApple()
    static let continueUri = "https://app.example.com/finish"

    func gateway() async throws -> TestGateway {
        try await TestGateway.withApple(apple) {
            $0.authorizedDomains = ["example.com"]
            $0.publicURL = "https://auth.example.com"
        }
    }

    struct Started {
        let sessionId: String
        let query: [String: String]
    }

    func start(_ gw: TestGateway, continueUri: String = continueUri) async throws -> Started {
        let reply = await gw.post("\(TestGateway.v1)/accounts:createAuthUri", [
            "providerId": "apple.com", "continueUri": .string(continueUri), "oauthScope": "name,email",
            "customParameter": ["locale": "fa_IR"]])
        let authUri = try #require(reply["authUri"]?.stringValue)
        #expect(authUri.hasPrefix(FakeApple.baseURL + "/auth/authorize?"))
        var query: [String: String] = [:]
        for (k, v) in FormURLEncoding.decode(String(authUri.split(separator: "?")[1])) { query[k] = v }
        return Started(sessionId: try #require(reply["sessionId"]?.stringValue), query: query)
    }

    /// What Apple does after the user consents: issue a code (and token) bound to the authorize request's nonce,
    /// then form-post to the gateway's handler. Returns the handler's reply.
    func appleConsents(_ gw: TestGateway, _ started: Started, state: String? = nil, code: String = "web-code",
                       sub: String = "web-user", redirected: Bool = false) async -> TestGateway.Reply {
        var claims = FakeApple.claims(sub: sub, nonce: nil, now: gw.time.nowSeconds, aud: FakeApple.servicesId)
        claims["nonce"] = .string(started.query["nonce"] ?? "")
        let idToken = FakeApple.sign(claims)
        apple.acceptCode(code, idToken: idToken)
        let form = FormURLEncoding.encode([("state", state ?? started.query["state"] ?? ""), ("code", code),
                                           ("id_token", idToken),
                                           ("user", #"{"name":{"firstName":"Web","lastName":"User"},"email":"w@x.com"}"#)])
        if redirected { return await gw.send("GET", "/__/auth/handler?" + form) }
        return await gw.send("POST", "/__/auth/handler", body: form,
                             headers: [("Content-Type", "application/x-www-form-urlencoded")])
    }

    func finish(_ gw: TestGateway, location: String, sessionId: String) async -> TestGateway.Reply {
        await gw.post("\(TestGateway.v1)/accounts:signInWithIdp",
                      ["requestUri": .string(location), "sessionId": .string(sessionId), "returnSecureToken": true])
    }

    @Test("end to end: Apple's authorize URL, the handler's hand-back, and a server-side code exchange")
    func endToEnd() async throws {
        let gw = try await gateway()
        let started = try await start(gw)
        #expect(started.query["client_id"] == FakeApple.servicesId && started.query["response_mode"] == "form_post")
        #expect(started.query["redirect_uri"] == "https://auth.example.com/__/auth/handler")
        #expect(started.query["scope"] == "name email" && started.query["locale"] == "fa_IR")
        #expect(started.query["nonce"]?.count == 64 && started.query["state"]?.isEmpty == false)
        let handed = await appleConsents(gw, started)
        #expect(handed.status == 303)
        let location = try #require(handed.headers["location"])
        #expect(location.hasPrefix(Self.continueUri + "#") && location.contains("code=web-code"))
        let signedIn = await finish(gw, location: location, sessionId: started.sessionId)
        #expect(signedIn.status == 200 && signedIn["isNewUser"] == true && signedIn["displayName"] == "Web User")
        let exchange = try #require(apple.requests(to: "/auth/token").first)
        let form = String(decoding: exchange.body, as: UTF8.self)
        #expect(form.contains("redirect_uri=https%3A%2F%2Fauth.example.com%2F__%2Fauth%2Fhandler"))
        #expect(form.contains("client_id=com.example.web"))
    }

    @Test("the handler also takes the answer from a redirect's query (GET), for providers without form posts")
    func answerInQuery() async throws {
        let gw = try await gateway()
        let started = try await start(gw)
        #expect(await appleConsents(gw, started, state: "forged-state", redirected: true).status == 400)
        let handed = await appleConsents(gw, started, code: "query-code", redirected: true)
        #expect(handed.status == 303)
        let location = try #require(handed.headers["location"])
        #expect(location.hasPrefix(Self.continueUri + "#") && location.contains("code=query-code"))
        #expect(await finish(gw, location: location, sessionId: started.sessionId).status == 200)
        #expect(await gw.send("GET", "/__/auth/handler").status == 400)
    }

    @Test("a reused session fails")
    func reusedSession() async throws {
        let gw = try await gateway()
        let started = try await start(gw)
        let location = try #require(await appleConsents(gw, started).headers["location"])
        #expect(await finish(gw, location: location, sessionId: started.sessionId).status == 200)
        #expect(await finish(gw, location: location, sessionId: started.sessionId).error
                == "INVALID_IDP_RESPONSE : The sign-in session is unknown, expired or already used; start again with createAuthUri")
    }

    @Test("a tampered state is refused by the handler and by signInWithIdp")
    func tamperedState() async throws {
        let gw = try await gateway()
        let started = try await start(gw)
        let forged = await appleConsents(gw, started, state: "forged-state")
        #expect(forged.status == 400 && forged.headers["location"] == nil)
        let location = try #require(await appleConsents(gw, started, code: "code-2").headers["location"])
        let tampered = location.replacingOccurrences(of: "state=", with: "state=x")
        #expect(await finish(gw, location: tampered, sessionId: started.sessionId).error
                == "INVALID_IDP_RESPONSE : The state does not match the sign-in session")
    }

    @Test("a credential naming another provider than the session's is refused, and the session is spent")
    func providerMismatch() async throws {
        let gw = try await gateway()
        let started = try await start(gw)
        let location = try #require(await appleConsents(gw, started).headers["location"])
        let mismatched = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
            "requestUri": .string(location), "postBody": "providerId=test.example", "sessionId": .string(started.sessionId),
            "returnSecureToken": true])
        #expect(mismatched.error == "INVALID_IDP_RESPONSE : The credential is for another provider than the session")
        #expect(await finish(gw, location: location, sessionId: started.sessionId).error?
                .hasPrefix("INVALID_IDP_RESPONSE : The sign-in session is unknown") == true)
    }

    @Test("a session opened for another project cannot be completed here, even on a shared store")
    func otherProject() async throws {
        let store = InMemoryUserStore()
        let time = ManualTime(milliseconds: 1_800_000_000_000)
        let session = RedirectSessions.Session(providerId: "apple.com", state: "state-1", rawNonce: "nonce-1",
                                               redirectUri: "https://auth.example.com/__/auth/handler",
                                               continueUri: Self.continueUri)
        let opened = try await RedirectSessions(store: store, time: time, projectId: "project-a").open(session)
        #expect(try await RedirectSessions(store: store, time: time, projectId: "project-b").take(opened) == nil)
        var other = session
        other.state = "state-2"
        let second = try await RedirectSessions(store: store, time: time, projectId: "project-a").open(other)
        #expect(try await RedirectSessions(store: store, time: time, projectId: "project-a").take(second) == other)
    }

    @Test("another session's credential fails the nonce check")
    func crossedSessions() async throws {
        let gw = try await gateway()
        let first = try await start(gw)
        let second = try await start(gw)
        let location = try #require(await appleConsents(gw, first).headers["location"])
        let crossed = location.replacingOccurrences(of: "state=\(FormURLEncoding.encode([("", first.query["state"]!)]).dropFirst())",
                                                    with: "state=\(FormURLEncoding.encode([("", second.query["state"]!)]).dropFirst())")
        #expect(await finish(gw, location: crossed, sessionId: second.sessionId).error?.hasPrefix("MISSING_OR_INVALID_NONCE") == true)
    }

    @Test("continueUri must be on the authorized domains; unsupported providers are refused")
    func startErrors() async throws {
        let gw = try await gateway()
        let path = "\(TestGateway.v1)/accounts:createAuthUri"
        #expect(await gw.post(path, ["providerId": "apple.com", "continueUri": "https://evil.test/x"]).error
                == "UNAUTHORIZED_DOMAIN : Domain not allowlisted by project")
        #expect(await gw.post(path, ["providerId": "apple.com"]).error == "MISSING_CONTINUE_URI")
        #expect(await gw.post(path, ["providerId": "apple.com", "continueUri": "not a url"]).error == "INVALID_CONTINUE_URI")
        #expect(await gw.post(path, ["providerId": "test.example", "continueUri": .string(Self.continueUri)]).error?
                .hasPrefix("INVALID_PROVIDER_ID") == true)
    }

    @Test("without a providerId, createAuthUri lists the sign-in methods of an email")
    func emailLookup() async throws {
        let gw = try await gateway()
        _ = await gw.signInWithApple(email: "ada@example.com")
        let path = "\(TestGateway.v1)/accounts:createAuthUri"
        let found = await gw.post(path, ["identifier": "Ada@example.com", "continueUri": "http://localhost"])
        #expect(found["registered"] == true && found["signinMethods"] == ["apple.com"])
        #expect(await gw.post(path, ["identifier": "nobody@example.com", "continueUri": "http://localhost"])["registered"] == false)
        #expect(await gw.post(path, [:]).error == "MISSING_IDENTIFIER")
    }
}
