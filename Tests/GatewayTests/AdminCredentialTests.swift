import AuthCore
import Crypto
import Storage
import Testing
@testable import Gateway
import WireFormats

@Suite("admin credentials: Bearer owner, admin tokens, service accounts and their access tokens")
struct AdminCredentialTests {
    @Test("outside emulator mode Bearer owner is refused by default, also from loopback")
    func ownerRefusedByDefault() async throws {
        let gw = try await TestGateway.make()
        let reply = await gw.adminLookup(bearer: "owner")
        #expect(reply.status == 401 && reply.json["error"]?["status"] == "UNAUTHENTICATED")
        #expect(await gw.adminLookup(bearer: "owner", from: "::1").status == 401)
    }

    @Test("in emulator mode Bearer owner is admin from anywhere, as the Firebase Auth Emulator")
    func ownerInEmulatorMode() async throws {
        let gw = try await TestGateway.make { $0.emulator = true }
        #expect(await gw.adminLookup(bearer: "owner", from: "203.0.113.9").status == 200)
        #expect(await gw.adminLookup(bearer: "OWNER").status == 200)
    }

    @Test("listed networks: Bearer owner only directly from them, never forwarded or from elsewhere")
    func ownerRule() throws {
        let loopback = [try #require(NetworkRange("127.0.0.0/8"))]
        let proxy = [try #require(NetworkRange("127.0.0.2"))]
        func accepts(_ emulator: Bool, _ peer: String, _ networks: [NetworkRange], _ proxies: [NetworkRange] = [],
                     forwarded: Bool = false) -> Bool {
            OwnerCredentialRule.accepts(emulator: emulator, peer: peer, ownerNetworks: networks, proxies: proxies,
                                        forwarded: forwarded)
        }
        #expect(!accepts(false, "127.0.0.1", []))
        #expect(accepts(false, "127.0.0.1", loopback))
        #expect(!accepts(false, "10.0.0.1", loopback))
        #expect(!accepts(false, "127.0.0.1", loopback, forwarded: true))
        #expect(!accepts(false, "127.0.0.2", loopback, proxy))
        #expect(accepts(true, "203.0.113.9", []))
    }

    @Test("a registered service account's JWT-bearer grant gives an access token the admin API accepts")
    func grantAndUse() async throws {
        let gw = try await TestGateway.make()
        let account = try TestServiceAccount.make()
        try await account.register(with: gw)
        let reply = await gw.grant(assertion: try account.assertion(now: gw.nowSeconds))
        #expect(reply.status == 200)
        #expect(reply["token_type"] == "Bearer" && reply["expires_in"] == 3600)
        #expect(reply.headers["cache-control"] == "no-store")
        let token = try #require(reply["access_token"]?.stringValue)
        #expect(await gw.adminLookup(bearer: token, from: "203.0.113.9").status == 200)
        // The gateway's own token URL is an audience too (Go's and Java's libraries use the key file's token_uri).
        let own = try account.assertion(now: gw.nowSeconds, audience: "http://gw.test/oauth2.googleapis.com/token")
        #expect(await gw.grant(assertion: own).status == 200)
    }

    @Test("forged, foreign, expired, long-lived or misdirected assertions are invalid_grant", arguments: [
        "forged", "unregistered", "expired", "lifetime", "audience", "unsigned", "garbage",
    ])
    func refusedAssertions(_ case_: String) async throws {
        let gw = try await TestGateway.make()
        let account = try TestServiceAccount.make()
        try await account.register(with: gw)
        let now = gw.nowSeconds
        let assertion: String = switch case_ {
        case "forged": try account.assertion(now: now, signer: try RSAPrivateKey.generate(bits: 2048))
        case "unregistered": try TestServiceAccount.make("stranger").assertion(now: now)
        case "expired": try account.assertion(now: now - 7200)
        case "lifetime": try account.assertion(now: now, lifetime: 3601)
        case "audience": try account.assertion(now: now, audience: "https://example.com/token")
        case "unsigned": TestServiceAccount.unsigned(["iss": .string(account.email), "aud": .string(JWTBearerGrant.googleAudience),
                                                      "iat": .int(now), "exp": .int(now + 60)])
        default: "not-a-jwt"
        }
        let reply = await gw.grant(assertion: assertion)
        #expect(reply.status == 400)
        #expect(reply["error"] == "invalid_grant")
    }

    @Test("the grant's own request errors are OAuth's")
    func grantRequestErrors() async throws {
        let gw = try await TestGateway.make()
        #expect(await gw.grant(assertion: "x", grantType: "client_credentials")["error"] == "unsupported_grant_type")
        #expect(await gw.grant(assertion: "")["error"] == "invalid_request")
    }

    @Test("access tokens end with their hour, with the account's removal, and are bound to the project")
    func accessTokenLife() async throws {
        let masterKey = SymmetricKey.generate()
        let store = InMemoryUserStore()
        let gw = try await TestGateway.make(store: store, masterKey: masterKey)
        let account = try TestServiceAccount.make()
        try await account.register(with: gw)
        let token = try #require(await gw.grant(assertion: try account.assertion(now: gw.nowSeconds))["access_token"]?.stringValue)
        // Another project on the same database and master key does not take it.
        let other = try await TestGateway.make(store: store, masterKey: masterKey) { $0.projectId = "other-project" }
        #expect(await other.adminLookup(bearer: token).status == 401)
        // A token altered in one byte does not open.
        var altered = Array(token.utf8)
        altered[altered.count - 3] = altered[altered.count - 3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(await gw.adminLookup(bearer: String(decoding: altered, as: UTF8.self)).status == 401)
        gw.time.advance(seconds: AdminAccessTokens.lifetimeSeconds - 1)
        #expect(await gw.adminLookup(bearer: token).status == 200)
        gw.time.advance(seconds: 1)
        #expect(await gw.adminLookup(bearer: token).status == 401)
        let fresh = try #require(await gw.grant(assertion: try account.assertion(now: gw.nowSeconds))["access_token"]?.stringValue)
        #expect(await gw.adminLookup(bearer: fresh).status == 200)
        let removed = try await gw.app.services.serviceAccounts.remove(account.email)
        #expect(removed)
        #expect(await gw.adminLookup(bearer: fresh).status == 401)
        #expect(await gw.grant(assertion: try account.assertion(now: gw.nowSeconds))["error"] == "invalid_grant")
    }
}

extension TestServiceAccount {
    /// An `alg: none` JWT, the shape the emulator-mode SDKs produce.
    static func unsigned(_ claims: JSONObject) -> String {
        Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + Base64URL.encode(JSONSerializer.bytes(.object(claims))) + "."
    }
}
