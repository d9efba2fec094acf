import AuthCore
import Crypto
import ProviderKit
import Synchronization
import Testing
@testable import Gateway
import WireFormats

/// A redirect provider that records what the gateway handed it, to check the PKCE binding end to end.
final class RecordingRedirectProvider: RedirectSignIn, @unchecked Sendable {
    let id: ProviderID = "redirect.example"
    let isEnabled = true
    let challenges = Mutex<[String]>([])
    let verifiers = Mutex<[String]>([])

    func verify(_ assertion: ProviderAssertion, context: RequestContext) async throws -> VerifiedIdentity {
        throw AuthError(.invalidIdpResponse, "only the redirect flow")
    }

    func authorizationURL(_ request: AuthorizationRequest) throws -> String {
        challenges.withLock { $0.append(request.codeChallenge) }
        return "https://idp.example/authorize?code_challenge=\(request.codeChallenge)&state=\(request.state)"
    }

    func completeRedirect(_ assertion: ProviderAssertion, binding: RedirectBinding,
                          context: RequestContext) async throws -> VerifiedIdentity {
        verifiers.withLock { $0.append(binding.codeVerifier) }
        return VerifiedIdentity(providerId: id, subject: assertion["code"] ?? "nobody")
    }
}

@Suite("Redirect flow: PKCE")
struct RedirectPKCETests {
    @Test("each session gets its own PKCE verifier; the provider sees its S256 challenge first and the verifier at the end")
    func pkce() async throws {
        let provider = RecordingRedirectProvider()
        let gw = try await TestGateway.make(providers: [provider])
        let started = await gw.post("\(TestGateway.v1)/accounts:createAuthUri",
                                    ["providerId": "redirect.example", "continueUri": "http://localhost/done"])
        let sessionId = try #require(started["sessionId"]?.stringValue)
        let authUri = try #require(started["authUri"]?.stringValue)
        let state = try #require(URLQuery.value("state", in: authUri))
        let finished = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
            "requestUri": .string("http://localhost/done#state=\(state)&code=user-7"), "sessionId": .string(sessionId),
            "returnSecureToken": true])
        #expect(finished.status == 200)
        let verifier = try #require(provider.verifiers.withLock { $0.first })
        #expect(verifier.count >= 43, "RFC 7636 needs 43-128 characters")
        #expect(provider.challenges.withLock { $0 } == [Base64URL.encode(SHA256.hash(verifier))])
        _ = await gw.post("\(TestGateway.v1)/accounts:createAuthUri",
                          ["providerId": "redirect.example", "continueUri": "http://localhost/done"])
        #expect(Set(provider.challenges.withLock { $0 }).count == 2, "a fresh verifier per session")
    }
}

@Suite("Redirect flow: providers answering with a GET query")
struct RedirectQueryResponseTests {
    @Test("GET /__/auth/handler?code=&state= (response_mode=query, Telegram's code flow) is handed back like a form post")
    func queryResponse() async throws {
        let provider = RecordingRedirectProvider()
        let gw = try await TestGateway.make(providers: [provider])
        let started = await gw.post("\(TestGateway.v1)/accounts:createAuthUri",
                                    ["providerId": "redirect.example", "continueUri": "http://localhost/done"])
        let sessionId = try #require(started["sessionId"]?.stringValue)
        let authUri = try #require(started["authUri"]?.stringValue)
        let state = try #require(URLQuery.value("state", in: authUri))
        let query = FormURLEncoding.encode([("code", "user-9"), ("state", state), ("ignored", "x")])
        let handed = await gw.send("GET", "/__/auth/handler?" + query)
        #expect(handed.status == 303)
        let location = try #require(handed.headers["location"])
        #expect(location.hasPrefix("http://localhost/done#") && location.contains("code=user-9") && !location.contains("ignored"))
        let finished = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
            "requestUri": .string(location), "sessionId": .string(sessionId), "returnSecureToken": true])
        #expect(finished.status == 200 && finished["federatedId"] == "user-9")
        #expect(await gw.send("GET", "/__/auth/handler?" + query).status == 400, "the state is single use")
    }
}

enum URLQuery {
    static func value(_ name: String, in url: String) -> String? {
        FormURLEncoding.value(named: name, in: url.split(separator: "?", maxSplits: 1).last.map(String.init))
    }
}
