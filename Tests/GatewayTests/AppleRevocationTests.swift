import AppleTestSupport
import AuthCore
import Testing
@testable import Gateway

@Suite("Apple code exchange, revocation on delete, and accounts:revokeToken", .serialized)
struct AppleRevocationTests {
    let apple = FakeApple()

    func outboxCount(_ gw: TestGateway) async throws -> Int {
        try await gw.store.read { try $0.outboxItems(kind: ProviderRevocations.kind).count }
    }

    @Test("the code is exchanged with an ES256 client secret and the refresh token is kept sealed")
    func codeExchange() async throws {
        let gw = try await TestGateway.withApple(apple)
        apple.acceptCode("c1")
        let reply = await gw.signInWithApple(code: "c1")
        #expect(reply.status == 200)
        let exchange = try #require(apple.requests(to: "/auth/token").first)
        #expect(exchange.headers.contains { $0.0 == "Content-Type" && $0.1 == "application/x-www-form-urlencoded" })
        let identity = try #require(try await gw.store.read { try $0.identity(providerId: "apple.com", federatedId: "apple-sub-1") })
        let sealed = try #require(identity.sealedSecrets)
        #expect(!String(decoding: sealed, as: UTF8.self).contains("rt-c1"), "sealed, not plain")
        #expect(gw.logs.contents.joined(separator: "\n").contains("rt-c1") == false)
    }

    @Test("a code Apple refuses does not fail the sign-in; nothing is stored to revoke")
    func refusedCode() async throws {
        let gw = try await TestGateway.withApple(apple)
        let reply = await gw.signInWithApple(code: "unknown-code")
        #expect(reply.status == 200)
        let identity = try await gw.store.read { try $0.identity(providerId: "apple.com", federatedId: "apple-sub-1") }
        #expect(identity?.sealedSecrets == nil)
        #expect(gw.logs.contents.joined(separator: "\n").contains("apple code exchange refused"))
    }

    @Test("accounts:delete revokes Apple's refresh token through the outbox")
    func deleteRevokes() async throws {
        let gw = try await TestGateway.withApple(apple)
        apple.acceptCode("c2")
        let user = await gw.signInWithApple(code: "c2")
        let deleted = await gw.post("\(TestGateway.v1)/accounts:delete", ["idToken": user["idToken"] ?? nil])
        #expect(deleted.status == 200)
        #expect(try await outboxCount(gw) == 1)
        #expect(try await ProviderRevocations.runDue(gw.app.services) == 1)
        #expect(apple.revokedTokens == ["rt-c2"])
        #expect(try await outboxCount(gw) == 0)
    }

    @Test("Apple down: the deletion completes, the revocation is retried with backoff until it succeeds")
    func retriedWhenDown() async throws {
        let gw = try await TestGateway.withApple(apple)
        apple.acceptCode("c3")
        let user = await gw.signInWithApple(code: "c3")
        apple.setReachable(false)
        let deleted = await gw.admin("delete", ["localId": user["localId"] ?? nil])
        #expect(deleted.status == 200)
        #expect(try await gw.store.read { try $0.user(localId: user["localId"]?.stringValue ?? "") } == nil)
        #expect(try await ProviderRevocations.runDue(gw.app.services) == 0)
        let pending = try #require(try await gw.store.read { try $0.outboxItems(kind: ProviderRevocations.kind) }.first)
        #expect(pending.attempts == 1 && pending.lastError != nil)
        #expect(try await ProviderRevocations.runDue(gw.app.services) == 0, "not due yet")
        apple.setReachable(true)
        gw.time.advance(seconds: 10)
        #expect(try await ProviderRevocations.runDue(gw.app.services) == 1)
        #expect(apple.revokedTokens == ["rt-c3"])
    }

    @Test("an account without an Apple refresh token is deleted with nothing queued")
    func nothingToRevoke() async throws {
        let gw = try await TestGateway.withApple(apple)
        let user = await gw.signInWithApple()
        #expect(await gw.admin("delete", ["localId": user["localId"] ?? nil]).status == 200)
        #expect(try await outboxCount(gw) == 0)
    }

    @Test("accounts:revokeToken revokes refresh tokens and exchanges then revokes codes; tokenType by name or number",
          arguments: ["CODE", "3"])
    func revokeTokenAPI(codeType: String) async throws {
        let gw = try await TestGateway.withApple(apple)
        let user = await gw.signInWithApple()
        let path = "/identitytoolkit.googleapis.com/v2/accounts:revokeToken"
        let refresh = await gw.post(path, ["idToken": user["idToken"] ?? nil, "providerId": "apple.com",
                                           "tokenType": "REFRESH_TOKEN", "token": "rt-direct"])
        #expect(refresh.status == 200 && refresh.json == [:])
        apple.acceptCode("c4")
        let code = await gw.post(path, ["idToken": user["idToken"] ?? nil, "providerId": "apple.com",
                                        "tokenType": .string(codeType), "token": "c4"])
        #expect(code.status == 200)
        #expect(apple.revokedTokens == ["rt-direct", "rt-c4"])
        let badCode = await gw.post(path, ["idToken": user["idToken"] ?? nil, "providerId": "apple.com",
                                           "tokenType": "CODE", "token": "never-issued"])
        #expect(badCode.error == "INVALID_IDP_RESPONSE : Apple rejected the token (invalid_grant)")
        #expect(await gw.post(path, ["providerId": "apple.com", "tokenType": "CODE", "token": "x"]).error == "MISSING_ID_TOKEN")
        #expect(await gw.post(path, ["idToken": user["idToken"] ?? nil, "providerId": "facebook.com", "tokenType": "CODE",
                                     "token": "x"]).error?.hasPrefix("INVALID_PROVIDER_ID") == true)
        #expect(await gw.post(path, ["idToken": user["idToken"] ?? nil, "providerId": "apple.com", "tokenType": "SOMETHING",
                                     "token": "x"]).status == 400)
    }

    @Test("without Team ID, Key ID and key, sign-in works and revokeToken explains what is missing")
    func withoutKey() async throws {
        let gw = try await TestGateway.withApple(apple, withKey: false)
        let user = await gw.signInWithApple(code: "ignored")
        #expect(user.status == 200 && apple.requests(to: "/auth/token").isEmpty)
        let reply = await gw.post("/identitytoolkit.googleapis.com/v2/accounts:revokeToken",
                                  ["idToken": user["idToken"] ?? nil, "providerId": "apple.com", "tokenType": "REFRESH_TOKEN",
                                   "token": "t"])
        #expect(reply.error?.hasPrefix("OPERATION_NOT_ALLOWED : Apple token revocation needs apple.teamId") == true)
    }
}
