import AuthCore
import Crypto
import ProviderKit
import Testing
@testable import Gateway
import WireFormats

/// The generic provider endpoints, driven through a plugin built only on the public contract.
@Suite("Provider callbacks and pages")
struct ProviderEndpointTests {
    static let secret = "callback-secret"
    static let events = "/gatehouse/v1/providers/callback.example/events"

    func gateway() async throws -> TestGateway {
        try await TestGateway.make(factories: ProviderRegistrations.factories + [TestCallbackProviderFactory()]) {
            $0.setPluginValue("callbackExample.enabled", true)
            $0.environment["GATEHOUSE_CALLBACK_SECRET"] = Self.secret
            $0.publicURL = "https://auth.example.com"
        }
    }

    func signIn(_ gw: TestGateway, sub: String, idToken: String? = nil, name: String? = nil) async -> TestGateway.Reply {
        var postBody = "providerId=callback.example&secret=\(Self.secret)&sub=\(sub)"
        if let name { postBody += "&name=\(name)" }
        var body: JSONObject = ["requestUri": "http://localhost", "returnSecureToken": true, "postBody": .string(postBody)]
        body.set("idToken", idToken)
        return await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", .object(body))
    }

    func callback(_ gw: TestGateway, _ type: String, sub: String, id: String, signature: String? = nil) async -> TestGateway.Reply {
        let body = JSONSerializer.string(["id": .string(id), "type": .string(type), "sub": .string(sub)])
        let signed = signature ?? Hex.encode(HMACSHA256.authenticate(key: Array(Self.secret.utf8), message: Array(body.utf8)))
        return await gw.send("POST", Self.events, body: body, headers: [("X-Test-Signature", signed)])
    }

    func user(_ gw: TestGateway, _ localId: String?) async throws -> UserRecord? {
        try await gw.store.read { try $0.user(localId: localId ?? "") }
    }

    @Test("a revoked identity is unlinked and its sessions end; a user left with no sign-in method is disabled")
    func revokeDisablesLastMethod() async throws {
        let gw = try await gateway()
        let only = await signIn(gw, sub: "only")
        #expect(await callback(gw, "revoke", sub: "only", id: "d1").status == 200)
        let stored = try #require(try await user(gw, only["localId"]?.stringValue))
        #expect(stored.disabled, "nothing is left to sign in with: disabled, not deleted")
        #expect(await gw.refresh(only["refreshToken"]?.stringValue ?? "").error == "USER_DISABLED")

        let anonymous = await gw.signUpAnonymously()
        let other = await gw.signInWithIdp(sub: "keeps-test", idToken: anonymous["idToken"]?.stringValue)
        _ = await signIn(gw, sub: "linked", idToken: other["idToken"]?.stringValue)
        #expect(await callback(gw, "revoke", sub: "linked", id: "d2").status == 200)
        let kept = try #require(try await user(gw, other["localId"]?.stringValue))
        #expect(!kept.disabled, "another provider still signs this user in")
        #expect(try await gw.store.read { try $0.identities(localId: kept.localId) }.map(\.providerId) == ["test.example"])
        #expect(await gw.refresh(other["refreshToken"]?.stringValue ?? "").error == "TOKEN_EXPIRED")
    }

    @Test("a deletion request deletes a user with no other method, answers with a status page, and is applied once")
    func deletionWithStatusPage() async throws {
        let gw = try await gateway()
        let only = await signIn(gw, sub: "gone")
        let reply = await callback(gw, "delete", sub: "gone", id: "del-1")
        #expect(reply.status == 200)
        #expect(try await user(gw, only["localId"]?.stringValue) == nil)
        let url = try #require(reply["url"]?.stringValue)
        #expect(url == "https://auth.example.com/gatehouse/v1/providers/callback.example/status?code=c-del-1")
        let page = await gw.send("GET", String(url.dropFirst("https://auth.example.com".count)))
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.headers["cache-control"] == "no-store")

        let repeated = await callback(gw, "delete", sub: "gone", id: "del-1")
        #expect(repeated.status == 200)
        #expect(gw.logs.contents.contains { $0.contains("\"outcome\":\"duplicate\"") })
    }

    @Test("a deletion request for a user with other sign-in methods deletes the identity and the name copied from it")
    func deletionKeepsTheAccount() async throws {
        let gw = try await gateway()
        let other = await gw.signInWithIdp(sub: "keeps")
        _ = await signIn(gw, sub: "named", idToken: other["idToken"]?.stringValue, name: "Copied")
        #expect(try await user(gw, other["localId"]?.stringValue)?.displayName == "Copied")
        #expect(await callback(gw, "delete", sub: "named", id: "del-2").status == 200)
        let kept = try #require(try await user(gw, other["localId"]?.stringValue))
        #expect(kept.displayName == nil, "the provider's data goes")
        #expect(try await gw.store.read { try $0.identities(localId: kept.localId) }.map(\.providerId) == ["test.example"])
        #expect(gw.logs.contents.contains { $0.contains("\"outcome\":\"identity_deleted\"") })
    }

    @Test("a forged or malformed callback is refused with Firebase's error and changes nothing")
    func forged() async throws {
        let gw = try await gateway()
        let only = await signIn(gw, sub: "victim")
        let forged = await callback(gw, "delete", sub: "victim", id: "f1", signature: String(repeating: "0", count: 64))
        #expect(forged.status == 400)
        #expect(forged.error == "INVALID_IDP_RESPONSE : bad callback signature")
        #expect(gw.logs.contents.contains { $0.contains("\"check\":\"signature\"") })
        let malformed = await gw.send("POST", Self.events, body: "{}", headers: [
            ("X-Test-Signature", Hex.encode(HMACSHA256.authenticate(key: Array(Self.secret.utf8), message: Array("{}".utf8))))])
        #expect(malformed.error == "INVALID_IDP_RESPONSE : malformed callback")
        #expect(try await user(gw, only["localId"]?.stringValue) != nil)
    }

    @Test("providers without the capability, unknown providers and unknown pages are 404")
    func notFound() async throws {
        let gw = try await gateway()
        #expect(await gw.send("POST", "/gatehouse/v1/providers/anonymous/events", body: "{}").status == 404)
        #expect(await gw.send("POST", "/gatehouse/v1/providers/nobody.example/events", body: "{}").status == 404)
        #expect(await gw.send("GET", "/gatehouse/v1/providers/callback.example/nothing").status == 404)
        #expect(await gw.send("GET", "/gatehouse/v1/providers/callback.example/status?code=nope").status == 404)
    }

    @Test("the plugin's section is its own: misspelt keys and missing secrets are refused at start, naming the key")
    func configuration() async throws {
        var config = GatewayConfiguration()
        config.setPluginValue("callbackExample.enabeld", true)
        let factories: [any ProviderFactory] = ProviderRegistrations.factories + [TestCallbackProviderFactory()]
        #expect(throws: ConfigurationError("unknown config key \"callbackExample.enabeld\"")) {
            try ConfigurationLoader.configuredPlugins(config, factories: factories)
        }
        config = GatewayConfiguration()
        config.setPluginValue("callbackExample.enabled", true)
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.configuredPlugins(config, factories: factories) }
    }
}

@Suite("Account event rules")
struct AccountEventRulesTests {
    static let provider: ProviderID = "callback.example"

    static func account(password: Bool = false, phone: Bool = false, emailLink: Bool = false,
                        otherProvider: Bool = false) -> AccountEventRules.Account {
        var user = UserRecord(localId: "u1", validSince: 0, createdAt: 0)
        if password { user.password = PasswordCredential(algorithm: "scrypt", parameters: "", hash: [1], salt: [2]) }
        if phone { user.phoneNumber = "+15555550100" }
        user.emailLinkSignin = emailLink
        var identities = [ProviderIdentity(providerId: provider.rawValue, federatedId: "s", localId: "u1", linkedAt: 0)]
        if otherProvider { identities.append(ProviderIdentity(providerId: "apple.com", federatedId: "a", localId: "u1", linkedAt: 0)) }
        return .init(user: user, identities: identities)
    }

    @Test("one rule per event type", arguments: [
        (AccountEvent.identityRevoked(subject: "s"), account(), AccountEventRules.Plan.unlink(localId: "u1", disable: true)),
        (.identityRevoked(subject: "s"), account(password: true), .unlink(localId: "u1", disable: false)),
        (.identityRevoked(subject: "s"), account(otherProvider: true), .unlink(localId: "u1", disable: false)),
        (.identityRevoked(subject: "s"), account(phone: true), .unlink(localId: "u1", disable: false)),
        (.deletionRequested(subject: "s"), account(), .deleteUser(localId: "u1")),
        (.deletionRequested(subject: "s"), account(emailLink: true), .deleteIdentity(localId: "u1")),
        (.deletionRequested(subject: "s"), account(otherProvider: true), .deleteIdentity(localId: "u1")),
        (.deletionRequested(subject: "s"), account(password: true), .deleteIdentity(localId: "u1")),
        (.deletionRequested(subject: "s"), account(phone: true), .deleteIdentity(localId: "u1")),
    ])
    func rules(_ event: AccountEvent, _ account: AccountEventRules.Account, _ expected: AccountEventRules.Plan) {
        #expect(AccountEventRules.plan(event, provider: Self.provider, account: account) == expected)
    }

    @Test("an unknown subject changes nothing")
    func unknown() {
        #expect(AccountEventRules.plan(.deletionRequested(subject: "x"), provider: Self.provider, account: nil)
                == .nothing(.unknownSubject))
    }
}
