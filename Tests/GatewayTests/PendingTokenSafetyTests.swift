import AuthCore
import Crypto
import Storage
import Testing
@testable import Gateway

@Suite("pending tokens and emulator credentials: the safety checks")
struct PendingTokenSafetyTests {
    @Test("a pending token is bound to its project")
    func projectBinding() async throws {
        let store = InMemoryUserStore()
        let sealer = Sealer(masterKey: SymmetricKey.generate())
        let time = ManualTime(milliseconds: 1_800_000_000_000)
        let ours = PendingCredentials(store: store, sealer: sealer, time: time, projectId: "ours")
        let theirs = PendingCredentials(store: store, sealer: sealer, time: time, projectId: "theirs")
        let token = try await ours.issue(for: VerifiedIdentity(providerId: "test.example", subject: "s"))
        await #expect(throws: AuthError(.invalidPendingToken)) { try await theirs.take(token) }
        #expect(try await ours.take(token).subject == "s")
    }

    @Test("the stored pending credential is sealed: the provider's token never sits in the database in clear")
    func sealedAtRest() async throws {
        let gw = try await TestGateway.make()
        _ = await gw.signInWithIdp(sub: "owner")
        let other = await gw.signUpAnonymously()
        let conflict = await gw.signInWithIdp(sub: "owner", idToken: other["idToken"]?.stringValue, returnIdpCredential: true)
        let pending = try #require(conflict["pendingToken"]?.stringValue)
        let record = try await gw.store.read { tx in
            try tx.oneTimeToken(kind: PendingCredentials.kind, hash: SHA256.hash(pending))
        }
        let payload = try #require(record?.payload)
        #expect(!payload.contains("test-access") && !payload.contains("owner"))
    }

    @Test("a bad linking ID token does not spend the pending token")
    func badIdTokenKeepsPendingToken() async throws {
        let gw = try await TestGateway.make()
        let owner = await gw.signInWithIdp(sub: "owner")
        let other = await gw.signUpAnonymously()
        let conflict = await gw.signInWithIdp(sub: "owner", idToken: other["idToken"]?.stringValue, returnIdpCredential: true)
        let pending = try #require(conflict["pendingToken"]?.stringValue)
        let path = "\(TestGateway.v1)/accounts:signInWithIdp"
        let bad = await gw.post(path, ["requestUri": "http://localhost", "pendingToken": .string(pending), "idToken": "garbage"])
        #expect(bad.error == "INVALID_ID_TOKEN")
        let good = await gw.post(path, ["requestUri": "http://localhost", "pendingToken": .string(pending)])
        #expect(good["localId"] == owner["localId"])
    }

    @Test("emulator mode never takes fake credentials for sign-in methods that are not IdPs",
          arguments: ["password", "anonymous", "phone", "custom", "emailLink", "firebase"])
    func reservedProviders(_ provider: String) async throws {
        let gw = try await TestGateway.make { $0.emulator = true }
        let reply = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
            "requestUri": "http://localhost", "postBody": .string("providerId=\(provider)&id_token={\"sub\":\"x\"}")])
        #expect(reply.error?.hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID") == true)
    }

    @Test("emulator mode takes an access_token carrying claims when there is no id_token")
    func accessTokenOnly() async throws {
        let gw = try await TestGateway.make { $0.emulator = true }
        let reply = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
            "requestUri": "http://localhost", "postBody": "providerId=facebook.com&access_token={\"sub\":\"fb1\"}"])
        #expect(reply["federatedId"] == "fb1" && reply["isNewUser"] == true)
        #expect(reply["oauthAccessToken"] == "{\"sub\":\"fb1\"}")
    }

    @Test("every X-Forwarded-For line of a trusted proxy counts, so a client cannot pick its own address")
    func forwardedLines() async throws {
        let gw = try await TestGateway.make { $0.trustedProxies = ["10.0.0.0/8"] }
        _ = await gw.post("\(TestGateway.v1)/accounts:signUp", [:],
                          headers: [("X-Forwarded-For", "10.2.2.2"), ("X-Forwarded-For", "203.0.113.7")], from: "10.0.0.1")
        let line = try #require(gw.logs.contents.last)
        #expect(line.contains("\"client.ip\":\"203.0.113.7\""))
    }
}
