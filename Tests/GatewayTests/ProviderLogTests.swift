import AppleTestSupport
import AuthCore
import Foundation
import ProviderApple
import Testing
@testable import Gateway

@Suite("provider lines in the log: why a credential was refused, what each provider accepts")
struct ProviderLogTests {
    let apple = FakeApple()

    static func entries(_ gw: TestGateway, msg: String) -> [[String: Any]] {
        gw.logs.contents.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["msg"] as? String == msg }
    }

    @Test("a refused Apple credential logs the failed check at info; the client's error is unchanged")
    func refusalNamesTheCheck() async throws {
        let gw = try await TestGateway.withApple(apple)
        let nonce = "nonce-aud-0123456789abc"
        let token = FakeApple.sign(FakeApple.claims(nonce: nonce, now: gw.time.nowSeconds, aud: "com.other"))
        let reply = await gw.signInWithApple(token: token, nonce: nonce)
        #expect(reply.status == 400)
        #expect(reply.json == ["error": ["code": 400,
                                         "message": "INVALID_IDP_RESPONSE : id_token audience is not a configured bundle ID or Services ID",
                                         "errors": [["message": "INVALID_IDP_RESPONSE : id_token audience is not a configured bundle ID or Services ID",
                                                     "reason": "invalid", "domain": "global"]]]])
        let refused = try #require(Self.entries(gw, msg: "credential refused").first)
        #expect(refused["level"] as? String == "info")
        #expect(refused["provider"] as? String == "apple.com" && refused["check"] as? String == "audience")
        #expect(refused["error.code"] as? String == "INVALID_IDP_RESPONSE")
        #expect(refused["request.id"] as? String == reply.headers["x-request-id"])
        let log = gw.logs.contents.joined()
        #expect(!log.contains(token.split(separator: ".")[1]) && !log.contains(nonce))

        _ = await gw.signInWithApple(token: gw.appleToken(nonce: "nonce-missing-0123456789"), nonce: nil)
        let replayNonce = "nonce-replay-0123456789ab"
        let replayed = gw.appleToken(nonce: replayNonce)
        #expect(await gw.signInWithApple(token: replayed, nonce: replayNonce).status == 200)
        _ = await gw.signInWithApple(token: replayed, nonce: replayNonce)
        #expect(Self.entries(gw, msg: "credential refused").compactMap { $0["check"] as? String }
                == ["audience", "nonce", "replay"])
    }

    @Test("Apple's keys unreachable: the client is refused, the log has a warning and the jwks_fetch check")
    func keyFetchFailure() async throws {
        let gw = try await TestGateway.withApple(apple)
        apple.setReachable(false)
        let reply = await gw.signInWithApple()
        #expect(reply.error == "INVALID_IDP_RESPONSE : Apple's public keys could not be fetched; try again")
        let warning = try #require(Self.entries(gw, msg: "apple key fetch failed").first)
        #expect(warning["level"] as? String == "warning" && warning["provider"] as? String == "apple.com")
        #expect(warning["cached_key_used"] as? Bool == false)
        #expect(Self.entries(gw, msg: "credential refused").first?["check"] as? String == "jwks_fetch")
    }

    @Test("start-up logs one line per enabled provider with what it accepts")
    func startupLines() async throws {
        let gw = try await TestGateway.withApple(apple) { $0.setPluginValue("anonymous.enabled", false) }
        ProviderLogLines.logEnabled(gw.app.services.providers.current, to: gw.app.services.logger)
        let lines = Self.entries(gw, msg: "provider enabled")
        let providers = lines.compactMap { $0["provider"] as? String }
        #expect(providers == ["apple.com", "password", "test.example"])
        let appleLine = try #require(lines.first)
        #expect(appleLine["audiences"] as? String == "\(FakeApple.bundleId),\(FakeApple.servicesId)")
        #expect(appleLine["code_exchange"] as? Bool == true && appleLine["revocation"] as? Bool == true)
        #expect(lines[1]["email_link"] as? Bool == true)

        let keyless = try await TestGateway.withApple(apple, withKey: false)
        ProviderLogLines.logEnabled(keyless.app.services.providers.current, to: keyless.app.services.logger)
        let line = try #require(Self.entries(keyless, msg: "provider enabled").first { $0["provider"] as? String == "apple.com" })
        #expect(line["code_exchange"] as? Bool == false && line["revocation"] as? Bool == false)
        #expect(Self.entries(keyless, msg: "provider enabled").contains { $0["provider"] as? String == "anonymous" })
    }
}
