import AuthCore
import Crypto
import OIDCTestSupport
import ProviderKit
@testable import ProviderOIDC
import Testing
import WireFormats

/// The redirect flow: the authorization URL, and the code exchange with PKCE bound to the session.
@Suite("OIDC redirect flow")
struct RedirectTests {
    static let redirectUri = "https://gw.example/__/auth/handler"

    func request(scopes: [String] = [], custom: [String: String] = [:]) -> AuthorizationRequest {
        AuthorizationRequest(redirectUri: Self.redirectUri, state: "state-1", rawNonce: "raw-nonce-0123456789",
                             codeVerifier: "verifier-" + String(repeating: "v", count: 40), scopes: scopes,
                             customParameters: custom)
    }

    func query(_ url: String) -> [String: String] {
        Dictionary(FormURLEncoding.decode(String(url.split(separator: "?", maxSplits: 1).last ?? "")), uniquingKeysWith: { $1 })
    }

    @Test("code flow: the discovered endpoint, the first client id, the hashed nonce and the S256 PKCE challenge")
    func codeURL() async throws {
        let f = OIDCFixture()
        let request = request(custom: ["login_hint": "ada", "client_id": "evil"])
        let url = try await f.provider.authorizationURL(request)
        #expect(url.hasPrefix(f.issuer.base + "/authorize?"))
        let q = query(url)
        #expect(q["client_id"] == f.issuer.clientId && q["redirect_uri"] == Self.redirectUri && q["state"] == "state-1")
        #expect(q["response_type"] == "code" && q["code_challenge_method"] == "S256")
        #expect(q["code_challenge"] == request.codeChallenge && q["nonce"] == SHA256.hexDigest(request.rawNonce))
        #expect(q["scope"] == "openid email profile" && q["login_hint"] == "ada", "custom parameters pass, reserved ones do not")
    }

    @Test("without a client secret the provider form-posts an ID token; asked scopes always include openid")
    func implicitURL() async throws {
        let f = OIDCFixture { $0.clientSecret = nil; $0.responseType = .idToken }
        let q = query(try await f.provider.authorizationURL(request(scopes: ["email", "groups"])))
        #expect(q["response_type"] == "id_token" && q["response_mode"] == "form_post" && q["code_challenge"] == nil)
        #expect(q["scope"] == "openid email groups")
    }

    func issue(_ f: OIDCFixture, _ request: AuthorizationRequest, nonce: String? = nil, code: String = "c-1") {
        let token = FakeOIDCIssuer.sign(f.issuer.claims(sub: "web-user", nonce: nonce ?? request.rawNonce, now: f.now))
        f.issuer.issueCode(code, idToken: token, challenge: request.codeChallenge, redirectUri: Self.redirectUri)
    }

    func complete(_ f: OIDCFixture, _ request: AuthorizationRequest, code: String = "c-1",
                  verifier: String? = nil) async throws -> VerifiedIdentity {
        try await f.provider.completeRedirect(
            ProviderAssertion(parameters: ["code": code, "state": request.state], requestUri: "http://localhost"),
            binding: RedirectBinding(redirectUri: Self.redirectUri, rawNonce: request.rawNonce,
                                     codeVerifier: verifier ?? request.codeVerifier),
            context: OIDCFixture.context)
    }

    @Test("the code is exchanged with HTTP Basic client authentication and the session's PKCE verifier")
    func exchange() async throws {
        let f = OIDCFixture()
        let request = request()
        issue(f, request)
        let identity = try await complete(f, request)
        #expect(identity.subject == "web-user" && identity.echoedCredential["oauthAccessToken"] == "at-c-1")
        let sent = try #require(f.issuer.requests(to: "/token").first)
        let form = Dictionary(FormURLEncoding.decode(String(decoding: sent.body, as: UTF8.self)), uniquingKeysWith: { $1 })
        #expect(form["code_verifier"] == request.codeVerifier && form["client_secret"] == nil)
        #expect(sent.headers.contains { $0.0 == "Authorization" && $0.1.hasPrefix("Basic ") })
    }

    @Test("a verifier that does not match the challenge is refused by the provider, so the sign-in fails")
    func wrongVerifier() async {
        let f = OIDCFixture()
        let request = request()
        issue(f, request)
        #expect(await f.refusedCheck { try await complete(f, request, verifier: "another-verifier-" + String(repeating: "x", count: 30)) } == .codeExchange)
    }

    @Test("the secret goes in the body when discovery lists only client_secret_post")
    func secretInBody() async throws {
        let f = OIDCFixture()
        f.issuer.setTokenEndpointAuthMethods(["client_secret_post"])
        let request = request()
        issue(f, request)
        _ = try await complete(f, request)
        let sent = try #require(f.issuer.requests(to: "/token").first)
        #expect(String(decoding: sent.body, as: UTF8.self).contains("client_secret=s3cret"))
        #expect(!sent.headers.contains { $0.0 == "Authorization" })
    }

    @Test("the ID token from the exchange must carry the session's nonce")
    func nonceBinding() async {
        let f = OIDCFixture()
        let request = request()
        issue(f, request, nonce: "some-other-nonce-value")
        #expect(await f.refusedCheck { try await complete(f, request) } == .nonce)
    }

    @Test("a form-posted ID token is verified against the session's nonce; a code without a secret is refused")
    func postedToken() async throws {
        let f = OIDCFixture { $0.clientSecret = nil; $0.responseType = .idToken }
        let request = request()
        let token = FakeOIDCIssuer.sign(f.issuer.claims(sub: "posted", nonce: request.rawNonce, now: f.now))
        let binding = RedirectBinding(redirectUri: Self.redirectUri, rawNonce: request.rawNonce, codeVerifier: request.codeVerifier)
        let identity = try await f.provider.completeRedirect(
            ProviderAssertion(parameters: ["id_token": token], requestUri: "http://localhost"), binding: binding,
            context: OIDCFixture.context)
        #expect(identity.subject == "posted")
        #expect(await f.refusedCheck {
            try await f.provider.completeRedirect(ProviderAssertion(parameters: ["code": "c"], requestUri: "http://localhost"),
                                                  binding: binding, context: OIDCFixture.context)
        } == .codeExchange)
    }
}
