import Crypto
import Federation
import ProviderKit
import Testing
import WireFormats

/// The key cache on its own: fetch counts, never wall-clock time.
@Suite("JWKS cache: keys by kid, Cache-Control lifetime, rate-limited refetch, no fallback key")
struct JWKSCacheTests {
    let issuer = FakeIssuer()
    let time = CountingTime()
    let log = RecordingLog()

    func cache(_ algorithms: Set<SignatureAlgorithm> = [.rs256, .es256], interval: Int64 = 60) -> JWKSCache {
        JWKSCache(url: FakeIssuer.jwksURL, algorithms: algorithms, fetcher: issuer, time: time,
                  refreshIntervalSeconds: interval, log: log, fetchFailureMessage: "test key fetch failed")
    }

    func lookup(_ keys: JWKSCache, _ kid: String) async -> Result<SignatureAlgorithm, KeyLookupFailure> {
        do { return .success(SignatureAlgorithm(of: try await keys.key(id: kid))) } catch { return .failure(error) }
    }

    var fetches: Int { issuer.fetches(of: FakeIssuer.jwksURL) }

    @Test("RSA and P-256 keys are read by kid, typed by the key, and fetched once while fresh")
    func keysByKid() async {
        let keys = cache()
        #expect(await lookup(keys, "rsa-1") == .success(.rs256))
        #expect(await lookup(keys, "ec-1") == .success(.es256))
        #expect(await lookup(keys, "rsa-1") == .success(.rs256))
        #expect(fetches == 1)
    }

    @Test("keys for algorithms the provider does not pin are not kept")
    func pinnedAlgorithms() async {
        let keys = cache([.rs256])
        #expect(await lookup(keys, "rsa-1") == .success(.rs256))
        #expect(await lookup(keys, "ec-1") == .failure(.unknownKey))
    }

    @Test("encryption keys, a kid published twice, and entries Crypto refuses are skipped")
    func skippedEntries() async {
        let rsa = TestKey.rsa.jwk.objectValue!
        var encryption = TestKey.rsaRotated.jwk.objectValue!
        encryption["use"] = "enc"
        var mislabelled = TestKey.ec.jwk.objectValue!
        mislabelled["alg"] = "RS256"
        var short = rsa
        short["kid"] = "short"
        short["n"] = .string(Base64URL.encode([UInt8](repeating: 0xC5, count: 128)))
        issuer.publishRaw([.object(rsa), .object(encryption), .object(mislabelled), .object(short),
                           TestKey.ecOther.named("twice").jwk, TestKey.rsaRotated.named("twice").jwk, "junk"])
        let keys = cache()
        #expect(await lookup(keys, "rsa-1") == .success(.rs256))
        for kid in ["rsa-2", "ec-1", "short", "twice"] {
            #expect(await lookup(keys, kid) == .failure(.unknownKey), "\(kid)")
        }
    }

    @Test("rotation: a new kid refetches the set; a retired kid is gone after the refetch")
    func rotation() async {
        let keys = cache()
        #expect(await lookup(keys, "rsa-1") == .success(.rs256))
        issuer.publish([.rsaRotated])
        time.advance(seconds: 60)
        #expect(await lookup(keys, "rsa-2") == .success(.rs256))
        #expect(fetches == 2)
        #expect(await lookup(keys, "rsa-1") == .failure(.unknownKey), "no fallback to the key it used to publish")
    }

    @Test("unknown kids refetch at most once per interval, and an interval below a second counts as one")
    func rateLimited() async {
        let keys = cache()
        for attempt in 0..<5 { #expect(await lookup(keys, "forged-\(attempt)") == .failure(.unknownKey)) }
        #expect(fetches == 1)
        time.advance(seconds: 59)
        #expect(await lookup(keys, "forged") == .failure(.unknownKey))
        #expect(fetches == 1)
        time.advance(seconds: 1)
        #expect(await lookup(keys, "forged") == .failure(.unknownKey))
        #expect(fetches == 2)

        let floor = JWKSCache(url: FakeIssuer.jwksURL, algorithms: [.rs256], fetcher: issuer, time: time, refreshIntervalSeconds: 0)
        for attempt in 0..<3 { _ = await lookup(floor, "forged-\(attempt)") }
        #expect(fetches == 3)
    }

    @Test("Cache-Control max-age sets the lifetime, bounded to a minute..a day, an hour when absent")
    func lifetime() async {
        // A one-second interval, so only the lifetime decides when the set is fetched again.
        let keys = cache(interval: 1)
        func lifetime(_ header: String?, fetchedAgainAfter seconds: Int64) async {
            issuer.setCacheControl(header)
            time.advance(seconds: 86_400)
            _ = await lookup(keys, "rsa-1")
            let fetched = fetches
            time.advance(seconds: seconds - 1)
            _ = await lookup(keys, "rsa-1")
            #expect(fetches == fetched, "still fresh: \(header ?? "no header")")
            time.advance(seconds: 1)
            _ = await lookup(keys, "rsa-1")
            #expect(fetches == fetched + 1, "stale after \(seconds) s: \(header ?? "no header")")
        }
        await lifetime("public, max-age=300, must-revalidate", fetchedAgainAfter: 300)
        await lifetime("max-age = 120", fetchedAgainAfter: 120)
        await lifetime("max-age=0", fetchedAgainAfter: 60)
        await lifetime("max-age=31536000", fetchedAgainAfter: 86_400)
        await lifetime(nil, fetchedAgainAfter: 3600)
        await lifetime("no-cache", fetchedAgainAfter: 3600)
    }

    @Test("issuer unreachable: known keys keep serving, nothing else is trusted, and each failed fetch is one warning")
    func unreachable() async throws {
        let keys = cache()
        #expect(await lookup(keys, "rsa-1") == .success(.rs256))
        issuer.setReachable(false)
        time.advance(seconds: 7200)
        #expect(await lookup(keys, "rsa-1") == .success(.rs256))
        #expect(await lookup(keys, "rsa-2") == .failure(.unavailable), "within the interval after a failed fetch")
        let warnings = log.lines.filter { $0.message == "test key fetch failed" }
        #expect(warnings.count == 1)
        let warning = try #require(warnings.first)
        #expect(warning.level == .warning && warning.details["cached_key_used"] == .bool(true))
        #expect(warning.details["reason"] == .string("connectionFailed(\"issuer is down\")"))
        #expect(warning.details["url"] == .string(FakeIssuer.jwksURL))
        issuer.setReachable(true)
        time.advance(seconds: 60)
        #expect(await lookup(keys, "rsa-2") == .failure(.unknownKey))
    }

    @Test("never fetched: an unreachable issuer is unavailable, an answer without the key is unknown, neither uses another key")
    func neverFetched() async {
        issuer.setReachable(false)
        let keys = cache()
        #expect(await lookup(keys, "rsa-1") == .failure(.unavailable))
        #expect(log.lines.first?.details["cached_key_used"] == .bool(false))
        issuer.setReachable(true)
        issuer.publish([])
        time.advance(seconds: 60)
        #expect(await lookup(keys, "rsa-1") == .failure(.unknownKey))
        #expect(log.lines.count == 1, "an answer without the key is no fetch failure")
    }

    @Test("a non-200 answer or a body that is not a JWKS is a failed fetch")
    func badAnswers() async {
        let elsewhere = JWKSCache(url: FakeIssuer.base + "/missing", algorithms: [.rs256], fetcher: issuer, time: time,
                                  refreshIntervalSeconds: 60, log: log)
        #expect(await lookup(elsewhere, "rsa-1") == .failure(.unavailable))
        #expect(log.lines.last?.details["reason"] == .string("HTTP 404"))
        issuer.setDiscovery(["not": "keys"])
        let wrong = JWKSCache(url: FakeIssuer.discoveryURL, algorithms: [.rs256], fetcher: issuer, time: time,
                              refreshIntervalSeconds: 60, log: log)
        #expect(await lookup(wrong, "rsa-1") == .failure(.unavailable))
        #expect(log.lines.last?.details["reason"] == .string("not a JWKS"))
    }

    @Test("callers arriving during a fetch wait for it: a rotation seen by a burst costs one fetch and fails no one")
    func concurrentCallersShareOneFetch() async {
        let keys = cache()
        _ = await lookup(keys, "rsa-1")
        issuer.publish([.rsa, .rsaRotated])
        time.advance(seconds: 60)
        issuer.hold()
        let readsBefore = time.reads
        let burst = 8
        await withTaskGroup(of: Result<SignatureAlgorithm, KeyLookupFailure>.self) { group in
            for _ in 0..<burst { group.addTask { await lookup(keys, "rsa-2") } }
            // Every caller reads the clock under the cache's lock as it decides; once all have, the fetch is let go.
            await waitUntil { time.reads >= readsBefore + burst && issuer.heldFetches == 1 }
            issuer.release()
            for await result in group { #expect(result == .success(.rs256)) }
        }
        #expect(fetches == 2)
    }

    @Test("a burst that shares one failed fetch logs it once")
    func sharedFailureWarnsOnce() async {
        let keys = cache()
        issuer.setReachable(false)
        issuer.hold()
        let readsBefore = time.reads
        await withTaskGroup(of: Result<SignatureAlgorithm, KeyLookupFailure>.self) { group in
            for _ in 0..<4 { group.addTask { await lookup(keys, "rsa-1") } }
            await waitUntil { time.reads >= readsBefore + 4 && issuer.heldFetches == 1 }
            issuer.release()
            for await result in group { #expect(result == .failure(.unavailable)) }
        }
        #expect(fetches == 1 && log.lines.count == 1)
    }
}
