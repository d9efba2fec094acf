import AppleTestSupport
import AuthCore
import Crypto
import Storage
import Testing
@testable import Gateway
import WireFormats

/// A revocation the outbox gives up on leaves a live token at the provider, so it must reach an operator as an
/// error with non-secret metadata, never vanish silently.
@Suite("Apple revocations that are given up are logged as abandoned", .serialized)
struct AppleRevocationAbandonTests {
    let apple = FakeApple()

    /// Signs in with a code Apple exchanges for `rt-<code>`, then deletes the account: one revocation queued.
    func deletedUserWithRefreshToken(_ gw: TestGateway, code: String) async throws {
        apple.acceptCode(code)
        let user = await gw.signInWithApple(code: code)
        #expect(await gw.admin("delete", ["localId": user["localId"] ?? nil]).status == 200)
        #expect(try await gw.store.read { try $0.outboxItems(kind: ProviderRevocations.kind) }.count == 1)
    }

    /// The metadata of each `provider revocation abandoned` line.
    func abandonedLogs(_ gw: TestGateway) -> [JSONValue] {
        gw.logs.contents.compactMap { try? JSONParser.parse($0) }.filter { $0["msg"] == "provider revocation abandoned" }
    }

    @Test("secrets that no longer unseal are dropped with an error log, not silently")
    func unsealable() async throws {
        let gw = try await TestGateway.withApple(apple)
        try await deletedUserWithRefreshToken(gw, code: "c-unseal")
        try await gw.store.write { tx in
            // What a changed master key or a damaged row looks like to the worker: the seal does not open.
            var item = try #require(try tx.outboxItems(kind: ProviderRevocations.kind).first)
            let foreign = try Sealer(masterKey: .generate()).seal(Array("{}".utf8), purpose: IdentityCoding.secretsPurpose)
            item.payload = JSONSerializer.string(["providerId": "apple.com", "secrets": .string(Base64URL.encode(foreign))])
            try tx.updateOutboxItem(item)
        }
        #expect(try await ProviderRevocations.runDue(gw.app.services) == 0)
        #expect(try await gw.store.read { try $0.outboxItems(kind: ProviderRevocations.kind) }.isEmpty)
        #expect(apple.revokedTokens.isEmpty)
        let line = try #require(abandonedLogs(gw).first)
        #expect(line["level"] == "error" && line["provider"] == "apple.com" && line["attempts"]?.intValue == 1)
        #expect(line["reason"]?.stringValue?.contains("cannot be unsealed") == true)
    }

    @Test("the last of the allowed attempts drops the item with an error log naming the attempts and last error")
    func maxAttempts() async throws {
        let gw = try await TestGateway.withApple(apple)
        try await deletedUserWithRefreshToken(gw, code: "c-max")
        apple.setReachable(false)
        try await gw.store.write { tx in
            var item = try #require(try tx.outboxItems(kind: ProviderRevocations.kind).first)
            item.attempts = ProviderRevocations.maxAttempts - 2
            try tx.updateOutboxItem(item)
        }
        #expect(try await ProviderRevocations.runDue(gw.app.services) == 0)
        #expect(abandonedLogs(gw).isEmpty, "one attempt left: kept and retried")
        gw.time.advance(seconds: 3600)
        #expect(try await ProviderRevocations.runDue(gw.app.services) == 0)
        #expect(try await gw.store.read { try $0.outboxItems(kind: ProviderRevocations.kind) }.isEmpty)
        let line = try #require(abandonedLogs(gw).first)
        #expect(line["level"] == "error" && line["provider"] == "apple.com")
        #expect(line["attempts"]?.intValue == Int64(ProviderRevocations.maxAttempts))
        #expect(line["reason"]?.stringValue?.hasPrefix("gave up after 40 attempts") == true)
        #expect(!gw.logs.contents.joined().contains("rt-c-max"))
    }
}
