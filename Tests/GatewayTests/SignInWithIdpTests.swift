import AppleTestSupport
import AuthCore
import Foundation
@testable import Gateway
import Storage
import StorageSQLite
import TestSupport
import Testing

@Suite("signInWithIdp through a test-only provider")
struct SignInWithIdpTests {
    @Test("first sign-in creates a user, the next signs the same user in")
    func signInTwice() async throws {
        let gw = try await TestGateway.make()
        let first = await gw.signInWithIdp(sub: "s1")
        #expect(first.status == 200 && first["isNewUser"] == true)
        #expect(first["kind"] == "identitytoolkit#VerifyAssertionResponse" && first["federatedId"] == "s1")
        let second = await gw.signInWithIdp(sub: "s1")
        #expect(second["localId"] == first["localId"])
        #expect(second["isNewUser"] == nil && second["needConfirmation"] == nil && second["errorMessage"] == nil)
        let claims = TestGateway.claims(try #require(second["idToken"]?.stringValue))
        #expect(claims["firebase"]?["sign_in_provider"] == "test.example")
        #expect(claims["firebase"]?["identities"] == ["test.example": ["s1"]])
    }

    @Test("request errors: missing or relative requestUri, missing or unknown provider, bad credential")
    func requestErrors() async throws {
        let gw = try await TestGateway.make()
        let path = "\(TestGateway.v1)/accounts:signInWithIdp"
        #expect(await gw.post(path, ["postBody": "providerId=test.example"]).error == "MISSING_REQUEST_URI")
        #expect(await gw.post(path, ["requestUri": "localhost", "postBody": "providerId=test.example"]).error == "INVALID_REQUEST_URI")
        #expect(await gw.post(path, ["requestUri": "http://localhost", "postBody": "sub=1"]).error
                == "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost")
        #expect(await gw.signInWithIdp(sub: "s", provider: "unknown.example").error?.hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID") == true)
        let forged = await gw.post(path, ["requestUri": "http://localhost", "postBody": "providerId=test.example&sub=1&secret=no"])
        #expect(forged.error == "INVALID_IDP_RESPONSE : test credential rejected")
    }

    @Test("the credential may come from the requestUri query or fragment")
    func parameterSources() async throws {
        let gw = try await TestGateway.make()
        let path = "\(TestGateway.v1)/accounts:signInWithIdp"
        let query = await gw.post(path, ["requestUri": "http://localhost/cb?providerId=test.example&secret=open-sesame&sub=q1"])
        #expect(query["federatedId"] == "q1")
        let fragment = await gw.post(path, ["requestUri": "http://localhost/cb#providerId=test.example&secret=open-sesame&sub=f1"])
        #expect(fragment["federatedId"] == "f1")
    }

    @Test("a disabled provider answers OPERATION_NOT_ALLOWED")
    func disabledProvider() async throws {
        let gw = try await TestGateway.make(providers: [TestIdentityProvider(isEnabled: false)])
        #expect(await gw.signInWithIdp(sub: "s1").error == "OPERATION_NOT_ALLOWED")
    }

    @Test("fake emulator credentials are refused outside emulator mode, by enabled providers too")
    func noFakeCredentialsInProduction() async throws {
        let gw = try await TestGateway.withApple(FakeApple())
        for provider in ["apple.com", "test.example"] {
            let fake = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
                "requestUri": "http://localhost", "postBody": .string("providerId=\(provider)&nonce=raw-nonce-0123456789&id_token={\"sub\":\"x\"}")])
            #expect(fake.status == 400)
            #expect(fake.error?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(provider): \(fake.error ?? "-")")
        }
        #expect(try await gw.store.read { try $0.userCount() } == 0)
    }

    @Test("anonymous upgrade keeps the localId and switches sign_in_provider")
    func anonymousUpgrade() async throws {
        let gw = try await TestGateway.make()
        let anonymous = await gw.signUpAnonymously()
        let upgraded = await gw.signInWithIdp(sub: "up1", idToken: anonymous["idToken"]?.stringValue)
        #expect(upgraded["localId"] == anonymous["localId"])
        let claims = TestGateway.claims(try #require(upgraded["idToken"]?.stringValue))
        #expect(claims["provider_id"] == nil && claims["firebase"]?["sign_in_provider"] == "test.example")
    }

    @Test("credential already in use: 200 with errorMessage and a single-use pending token that signs in the owner")
    func updatedCredential() async throws {
        let gw = try await TestGateway.make()
        let owner = await gw.signInWithIdp(sub: "taken")
        let other = await gw.signUpAnonymously()
        let conflict = await gw.signInWithIdp(sub: "taken", idToken: other["idToken"]?.stringValue, returnIdpCredential: true)
        #expect(conflict.status == 200)
        #expect(conflict["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(conflict["localId"] == nil && conflict["idToken"] == nil && conflict["refreshToken"] == nil)
        #expect(conflict["oauthAccessToken"] == "test-access")
        let pending = try #require(conflict["pendingToken"]?.stringValue)
        let path = "\(TestGateway.v1)/accounts:signInWithIdp"
        let signedIn = await gw.post(path, ["requestUri": "http://localhost", "pendingToken": .string(pending), "returnSecureToken": true])
        #expect(signedIn["localId"] == owner["localId"])
        let reused = await gw.post(path, ["requestUri": "http://localhost", "pendingToken": .string(pending)])
        #expect(reused.error == "INVALID_PENDING_TOKEN")
        #expect(await gw.post(path, ["requestUri": "http://localhost", "pendingToken": "ghp.forged"]).error == "INVALID_PENDING_TOKEN")
        let plain = await gw.signInWithIdp(sub: "taken", idToken: other["idToken"]?.stringValue)
        #expect(plain.status == 400 && plain.error == "FEDERATED_USER_ID_ALREADY_LINKED")
    }

    @Test("pending tokens expire")
    func pendingExpiry() async throws {
        let gw = try await TestGateway.make()
        _ = await gw.signInWithIdp(sub: "taken")
        let other = await gw.signUpAnonymously()
        let conflict = await gw.signInWithIdp(sub: "taken", idToken: other["idToken"]?.stringValue, returnIdpCredential: true)
        gw.time.advance(seconds: 601)
        let late = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp",
                                 ["requestUri": "http://localhost", "pendingToken": conflict["pendingToken"] ?? nil])
        #expect(late.error == "INVALID_PENDING_TOKEN")
    }

    @Test("one identity per provider per user; re-linking the same identity changes nothing")
    func oneIdentityPerProvider() async throws {
        let gw = try await TestGateway.make()
        let user = await gw.signInWithIdp(sub: "mine")
        let token = user["idToken"]?.stringValue
        #expect(await gw.signInWithIdp(sub: "second", idToken: token).error == "PROVIDER_ALREADY_LINKED")
        let again = await gw.signInWithIdp(sub: "mine", idToken: token)
        #expect(again.status == 200 && again["localId"] == user["localId"])
    }

    @Test("untrusted email of an existing account needs confirmation; trusted email auto-links")
    func emailCollisions() async throws {
        let gw = try await TestGateway.make()
        let holder = await gw.signInWithIdp(sub: "h1", email: "A@Example.com", trusted: true)
        let untrusted = await gw.signInWithIdp(sub: "u1", email: "a@example.com", trusted: false, provider: "test.example")
        // Same provider with another subject and a trusted email: refused (one identity per provider).
        #expect(untrusted["needConfirmation"] == true)
        #expect(untrusted["localId"] == holder["localId"] && untrusted["idToken"] == nil)
        #expect(untrusted["verifiedProvider"] == ["test.example"])
        #expect(untrusted["pendingToken"]?.stringValue?.hasPrefix("ghp.") == true)
    }

    @Test("a vouched-for email takes over an unverified account: earlier identities and sessions are dropped")
    func takeover() async throws {
        let gw = try await TestGateway.make(providers: [TestIdentityProvider(), TestIdentityProvider(id: "trusted.example")])
        let squatter = await gw.signInWithIdp(sub: "squat", email: "victim@example.com", trusted: false)
        let oldToken = try #require(squatter["idToken"]?.stringValue)
        gw.time.advance(seconds: 2)
        let owner = await gw.signInWithIdp(sub: "real", email: "victim@example.com", trusted: true, provider: "trusted.example")
        #expect(owner["localId"] == squatter["localId"])
        let info = await gw.lookup(try #require(owner["idToken"]?.stringValue))
        let user = try #require(info["users"]?.arrayValue?.first)
        #expect(user["emailVerified"] == true)
        #expect(user["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } == ["trusted.example"])
        #expect(await gw.lookup(oldToken).error == "TOKEN_EXPIRED")
        // The squatter's identity no longer opens the account.
        let again = await gw.signInWithIdp(sub: "squat", email: "victim@example.com", trusted: false)
        #expect(again["localId"] != squatter["localId"] || again["needConfirmation"] == true)
    }

    @Test("a pending token presented for another provider is refused and stays usable")
    func pendingTokenProviderMismatch() async throws {
        let gw = try await TestGateway.make()
        let owner = await gw.signInWithIdp(sub: "taken")
        let other = await gw.signUpAnonymously()
        let conflict = await gw.signInWithIdp(sub: "taken", idToken: other["idToken"]?.stringValue, returnIdpCredential: true)
        let pending = try #require(conflict["pendingToken"]?.stringValue)
        let path = "\(TestGateway.v1)/accounts:signInWithIdp"
        let wrong = await gw.post(path, ["requestUri": "http://localhost", "postBody": "providerId=apple.com", "pendingToken": .string(pending)])
        #expect(wrong.error == "INVALID_PENDING_TOKEN")
        let right = await gw.post(path, ["requestUri": "http://localhost", "postBody": "providerId=test.example", "pendingToken": .string(pending)])
        #expect(right["localId"] == owner["localId"])
    }

    @Test("autoCreate false never creates a user")
    func reauthNeverCreates() async throws {
        let gw = try await TestGateway.make()
        #expect(await gw.signInWithIdp(sub: "ghost", autoCreate: false).status == 400)
        #expect(try await gw.store.read { try $0.userCount() } == 0)
    }

    @Test("unlinking removes the identity from providerUserInfo and from new tokens' identities", arguments: [false, true])
    func unlink(sqlite: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let gw = try await TestGateway.make(store: sqlite ? try SQLiteUserStore(path: directory.file("users.sqlite")) : nil)
        let user = await gw.signInWithIdp(sub: "u1", email: "u@example.com", trusted: true)
        let updated = await gw.post("\(TestGateway.v1)/accounts:update",
                                    ["idToken": user["idToken"] ?? nil, "deleteProvider": ["test.example", "nope.example"]])
        #expect(updated["providerUserInfo"] == [])
        #expect(updated["email"] == "u@example.com")
        let refreshed = await gw.refresh(try #require(user["refreshToken"]?.stringValue))
        let identities = TestGateway.claims(try #require(refreshed["id_token"]?.stringValue))["firebase"]?["identities"]
        #expect(identities == ["email": ["u@example.com"]])
    }

    @Test("50 parallel sign-ins with one new identity create exactly one user", arguments: [false, true])
    func parallelSignIns(sqlite: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let gw = try await TestGateway.make(store: sqlite ? try SQLiteUserStore(path: directory.file("users.sqlite")) : nil)
        let ids = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<50 { group.addTask { await gw.signInWithIdp(sub: "race")["localId"]?.stringValue } }
            var all: [String?] = []
            for await id in group { all.append(id) }
            return all
        }
        #expect(Set(ids.compactMap { $0 }).count == 1 && ids.allSatisfy { $0 != nil })
        #expect(try await gw.store.read { try $0.userCount() } == 1)
    }

    @Test("50 parallel links of one identity to different users link it exactly once", arguments: [false, true])
    func parallelLinks(sqlite: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let gw = try await TestGateway.make(store: sqlite ? try SQLiteUserStore(path: directory.file("users.sqlite")) : nil)
        var tokens: [String] = []
        for _ in 0..<50 { tokens.append(try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)) }
        let results = await withTaskGroup(of: (Int, String?).self) { group in
            for token in tokens {
                group.addTask { let r = await gw.signInWithIdp(sub: "contested", idToken: token); return (r.status, r.error) }
            }
            var all: [(Int, String?)] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.filter { $0.0 == 200 }.count == 1)
        #expect(results.filter { $0.1 == "FEDERATED_USER_ID_ALREADY_LINKED" }.count == 49)
    }
}
