import AppleTestSupport
import AuthCore
import ProviderApple
import Testing

@Suite("Apple's JWKS: cached, re-fetched on rotation, rate-limited")
struct KeySetTests {
    @Test("keys are fetched once and reused")
    func cached() async throws {
        let fx = try AppleFixture()
        for seed in 0..<3 {
            let token = FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(seed), now: fx.now))
            #expect(await fx.failure(token, nonce: AppleFixture.nonce(seed)) == nil)
        }
        #expect(fx.apple.requests(to: "/auth/keys").count == 1)
    }

    @Test("key rotation at Apple: an unknown kid re-fetches the set and the new key verifies")
    func rotation() async throws {
        let fx = try AppleFixture()
        #expect(await fx.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(0), now: fx.now))) == nil)
        fx.apple.publish([("k2", FakeApple.rotatedKey)])
        fx.time.advance(seconds: 60)
        let rotated = FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(1), now: fx.now), key: FakeApple.rotatedKey, kid: "k2")
        #expect(await fx.failure(rotated, nonce: AppleFixture.nonce(1)) == nil)
        #expect(fx.apple.requests(to: "/auth/keys").count == 2)
        // The retired key is gone from the set: its kid is no longer trusted once re-fetched.
        fx.time.advance(seconds: 61)
        let retired = FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(2), now: fx.now))
        #expect(await fx.failure(retired, nonce: AppleFixture.nonce(2))?.contains("key Apple does not publish") == true)
    }

    @Test("unknown kids re-fetch at most once per interval")
    func rateLimited() async throws {
        let fx = try AppleFixture()
        for seed in 0..<5 {
            let forged = FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(seed), now: fx.now), kid: "forged-\(seed)")
            #expect(await fx.failure(forged, nonce: AppleFixture.nonce(seed))?.contains("key Apple does not publish") == true)
        }
        #expect(fx.apple.requests(to: "/auth/keys").count == 1)
        fx.time.advance(seconds: 60)
        _ = await fx.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(9), now: fx.now), kid: "forged"),
                             nonce: AppleFixture.nonce(9))
        #expect(fx.apple.requests(to: "/auth/keys").count == 2)
    }

    @Test("an interval below a second still rate-limits: a burst of forged kids at one instant fetches once")
    func intervalFloor() async throws {
        let fx = try AppleFixture { $0.keyRefreshIntervalSeconds = 0 }
        for seed in 0..<3 {
            let forged = FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(seed), now: fx.now), kid: "forged-\(seed)")
            _ = await fx.failure(forged, nonce: AppleFixture.nonce(seed))
        }
        #expect(fx.apple.requests(to: "/auth/keys").count == 1)
        fx.time.advance(seconds: 1)
        _ = await fx.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(9), now: fx.now), kid: "forged"),
                             nonce: AppleFixture.nonce(9))
        #expect(fx.apple.requests(to: "/auth/keys").count == 2)
    }

    @Test("Apple unreachable: known keys keep working, nothing else is trusted")
    func unreachable() async throws {
        let fx = try AppleFixture()
        #expect(await fx.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(0), now: fx.now))) == nil)
        fx.apple.setReachable(false)
        fx.time.advance(seconds: 7200)
        #expect(await fx.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(1), now: fx.now)),
                                 nonce: AppleFixture.nonce(1)) == nil)
        let fresh = try AppleFixture()
        fresh.apple.setReachable(false)
        #expect(await fresh.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(), now: fresh.now)))
                == "INVALID_IDP_RESPONSE : Apple's public keys could not be fetched; try again")
        fresh.time.advance(seconds: 120)  // past the refresh interval, so the set is fetched again
        #expect(await fresh.refusedCheck(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(1), now: fresh.now)),
                                         nonce: AppleFixture.nonce(1)) == .keyFetch)
    }

    @Test("a failed key fetch is a warning saying why and whether a cached key still served")
    func fetchFailureWarns() async throws {
        let fx = try AppleFixture()
        #expect(await fx.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(0), now: fx.now))) == nil)
        #expect(fx.log.lines.isEmpty)
        fx.apple.setReachable(false)
        fx.time.advance(seconds: 7200)
        #expect(await fx.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(1), now: fx.now)),
                                 nonce: AppleFixture.nonce(1)) == nil)
        let warning = try #require(fx.log.warnings("apple key fetch failed").first)
        #expect(warning.details["cached_key_used"] == .bool(true))
        #expect(warning.details["reason"] == .string("connectionFailed(\"stand-in is down\")"))

        let fresh = try AppleFixture()
        fresh.apple.publish([])
        _ = await fresh.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(), now: fresh.now)))
        #expect(fresh.log.lines.isEmpty, "an answer without the key is no fetch failure")
        fresh.apple.setReachable(false)
        fresh.time.advance(seconds: 7200)
        _ = await fresh.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(1), now: fresh.now)),
                                nonce: AppleFixture.nonce(1))
        #expect(fresh.log.warnings("apple key fetch failed").first?.details["cached_key_used"] == .bool(false))
    }
}
