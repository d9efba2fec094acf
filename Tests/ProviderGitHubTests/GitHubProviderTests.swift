import AuthCore
import Outbound
import ProviderKit
@testable import ProviderGitHub
import Synchronization
import Testing
import WireFormats

/// Records warnings (the operator's log).
final class WarningLog: ProviderLog {
    private let messages = Mutex<[String]>([])
    var warnings: [String] { messages.withLock { $0 } }
    func record(_ level: ProviderLogLevel, _ message: StaticString, _ details: [(String, ProviderLogValue)]) {
        if level == .warning { messages.withLock { $0.append("\(message)") } }
    }
}

@Suite("GitHub provider (the worked example)")
struct GitHubProviderTests {
    let github = FakeGitHub()
    let log = WarningLog()
    static let context = RequestContext(clientAddress: "127.0.0.1", receivedAt: 0, projectId: "p")
    static let octocat: JSONObject = ["id": 583231, "login": "octocat", "name": "The Octocat",
                                      "avatar_url": "https://avatars.example/u/583231"]

    func provider(enabled: Bool = true) throws -> GitHubProvider {
        let section = ConfigSection(["enabled": .bool(enabled), "clientId": .string(FakeGitHub.clientId),
                                     "baseUrl": .string(FakeGitHub.web), "apiBaseUrl": .string(FakeGitHub.api)], path: "github")
        let factory = GitHubProviderFactory()
        let settings = try factory.settings(from: section, environment: ["GATEHOUSE_GITHUB_CLIENT_SECRET": FakeGitHub.clientSecret])
        let api = GitHubAPI(settings: settings, fetcher: github, log: log)
        return GitHubProvider(settings: settings, api: api)
    }

    func signIn(_ provider: GitHubProvider, _ token: String) async throws -> VerifiedIdentity {
        try await provider.verify(ProviderAssertion(parameters: ["providerId": "github.com", "access_token": token],
                                                    requestUri: "http://localhost"), context: Self.context)
    }

    func refusedCheck(_ attempt: () async throws -> VerifiedIdentity) async -> CredentialCheck? {
        do { _ = try await attempt(); return nil } catch { return (error as? CredentialRefusal)?.check }
    }

    @Test("a token of this app signs its user in; a verified address is reported but never links")
    func signsIn() async throws {
        github.issue("gho_good", user: Self.octocat, emails: [["email": "Octo@Example.com", "primary": true, "verified": true],
                                                              ["email": "other@example.com", "primary": false, "verified": true]])
        let identity = try await signIn(try provider(), "gho_good")
        #expect(identity.providerId == "github.com" && identity.subject == "583231" && identity.screenName == "octocat")
        #expect(identity.displayName == "The Octocat" && identity.photoUrl == "https://avatars.example/u/583231")
        #expect(identity.email == .verifiedNotForLinking("octo@example.com"))
        #expect(identity.echoedCredential == ["oauthAccessToken": "gho_good"])
    }

    @Test("a token issued to another GitHub app is refused (GitHub's check-a-token answers only to its app)")
    func otherApp() async throws {
        github.issue("gho_foreign", app: "SomeOtherApp", user: Self.octocat)
        let provider = try provider()
        #expect(await refusedCheck { try await signIn(provider, "gho_foreign") } == .audience)
        #expect(await refusedCheck { try await signIn(provider, "gho_never_issued") } == .audience)
        github.answerForeignTokens()
        #expect(await refusedCheck { try await signIn(provider, "gho_foreign") } == .audience,
                "an answer naming another app is refused even if GitHub gave one")
    }

    @Test("an unverified address is untrusted; no user:email scope means no address, not a failure")
    func emails() async throws {
        github.issue("gho_unverified", user: ["id": 1, "login": "one"], emails: [["email": "one@example.com", "primary": true, "verified": false]])
        github.issue("gho_noscope", user: ["id": 2, "login": "two"])
        let provider = try provider()
        #expect(try await signIn(provider, "gho_unverified").email == .untrusted("one@example.com"))
        let two = try await signIn(provider, "gho_noscope")
        #expect(two.email == nil && two.displayName == "two")
    }

    @Test("GitHub down: refused with a try-again message and a warning for the operator")
    func down() async throws {
        github.setReachable(false)
        #expect(await refusedCheck { try await signIn(try provider(), "gho_any") } == .accessToken)
        #expect(log.warnings == ["github unreachable"])
    }

    @Test("the redirect flow: an S256 challenge goes out, the code comes back and is exchanged with the verifier")
    func redirect() async throws {
        let provider = try provider()
        let request = AuthorizationRequest(redirectUri: "https://gw.example/__/auth/handler", state: "st", rawNonce: "n",
                                           codeVerifier: String(repeating: "v", count: 43), customParameters: ["allow_signup": "false"])
        let url = try provider.authorizationURL(request)
        #expect(url.hasPrefix(FakeGitHub.web + "/login/oauth/authorize?"))
        #expect(url.contains("code_challenge=\(request.codeChallenge)") && url.contains("code_challenge_method=S256"))
        #expect(url.contains("scope=read%3Auser+user%3Aemail") && url.contains("allow_signup=false"))
        github.issue("gho_web", user: Self.octocat)
        github.issueCode("code-1", for: "gho_web", challenge: request.codeChallenge)
        github.issueCode("code-2", for: "gho_web", challenge: request.codeChallenge)
        let binding = RedirectBinding(redirectUri: request.redirectUri, rawNonce: "n", codeVerifier: request.codeVerifier)
        let identity = try await provider.completeRedirect(ProviderAssertion(parameters: ["code": "code-1"], requestUri: "http://l"),
                                                           binding: binding, context: Self.context)
        #expect(identity.subject == "583231")
        let otherSession = RedirectBinding(redirectUri: request.redirectUri, rawNonce: "n", codeVerifier: String(repeating: "w", count: 43))
        #expect(await refusedCheck {
            try await provider.completeRedirect(ProviderAssertion(parameters: ["code": "code-2"], requestUri: "http://l"),
                                                binding: otherSession, context: Self.context)
        } == .codeExchange)
    }

    @Test("switched off: OPERATION_NOT_ALLOWED; on without a secret: the start stops, naming the fix")
    func settings() async throws {
        do { _ = try await signIn(try provider(enabled: false), "gho_x"); Issue.record("accepted") } catch {
            #expect(error as? AuthError == AuthError(.operationNotAllowed))
        }
        #expect(throws: ConfigurationError.self) {
            try GitHubProviderFactory().settings(from: ConfigSection(["enabled": true, "clientId": "abc"], path: "github"), environment: [:])
        }
        #expect(throws: ConfigurationError.self) {
            try GitHubProviderFactory().settings(from: ConfigSection(["enabled": true, "secret": "inline"], path: "github"), environment: [:])
        }
    }
}
