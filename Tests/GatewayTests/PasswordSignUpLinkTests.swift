import AuthCore
import Testing
@testable import Gateway

/// `accounts:signUp` with an `idToken` adds a password to the token's user; it must not become a way to take
/// an account over with a stolen or old token.
@Suite("Adding a password to a signed-in user")
struct PasswordSignUpLinkTests {
    @Test("a user who already has a password is refused, and keeps email and password")
    func passwordUser() async throws {
        let gw = try await TestGateway.withEmail()
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue
        #expect(await gw.signUp("mallory@example.com", "taken-over", idToken: token).error == "PROVIDER_ALREADY_LINKED")
        #expect(await gw.signIn("ada@example.com", "secret1").status == 200)
        #expect(await gw.signIn("mallory@example.com", "taken-over").error == "EMAIL_NOT_FOUND")
    }

    @Test("a federated user needs a recent sign-in, and the changed email ends older sessions")
    func staleFederatedUser() async throws {
        let gw = try await TestGateway.withEmail()
        let stale = await gw.signInWithIdp(sub: "fed-1", email: "fed@example.com", trusted: true)["idToken"]?.stringValue
        gw.time.advance(seconds: 301)
        #expect(await gw.signUp("new@example.com", "secret1", idToken: stale).error == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        #expect(await gw.signIn("new@example.com", "secret1").error == "EMAIL_NOT_FOUND")

        let fresh = await gw.signInWithIdp(sub: "fed-1", email: "fed@example.com", trusted: true)["idToken"]?.stringValue ?? ""
        gw.time.advance(seconds: 2)
        let linked = await gw.signUp("new@example.com", "secret1", idToken: fresh)
        #expect(linked.status == 200)
        #expect(await gw.lookup(fresh).error == "TOKEN_EXPIRED")
        #expect(await gw.lookup(linked["idToken"]?.stringValue ?? "")["users"]?.arrayValue?.first?["email"]?.stringValue == "new@example.com")
        #expect(await gw.signIn("new@example.com", "secret1")["localId"] == linked["localId"])
    }

    @Test("an anonymous user is exempt from the recency rule and is upgraded in place")
    func anonymousUpgrade() async throws {
        let gw = try await TestGateway.withEmail()
        let anonymous = await gw.signUpAnonymously()
        gw.time.advance(seconds: 3600)
        let upgraded = await gw.signUp("ada@example.com", "secret1", idToken: anonymous["idToken"]?.stringValue)
        #expect(upgraded.status == 200)
        #expect(upgraded["localId"] == anonymous["localId"])
        #expect(await gw.signIn("ada@example.com", "secret1")["localId"] == anonymous["localId"])
    }
}
