import AuthCore
import Testing

@Suite("signing key activation, publication and rotation")
struct KeyRotationTests {
    func key(_ kid: String, created: Int64, activates: Int64, unpublish: Int64? = nil) -> SigningKeyRecord {
        SigningKeyRecord(kid: kid, algorithm: "RS256", sealedPrivateKey: [], publicKeyPEM: "", certificatePEM: "",
                         createdAt: created, activatesAt: activates, unpublishAt: unpublish)
    }

    @Test("a rotated-in key is published at once but signs only one cache max-age and one reload interval later")
    func rotationDelaysSigning() {
        let old = key("old", created: 0, activates: 0)
        let (updated, new) = SigningKeys.rotate([old], adding: key("new", created: 1000, activates: 1000), now: 1000,
                                                keyCacheMaxAge: 3600, tokenLifetime: 3600)
        let records = updated + [new]
        #expect(new.activatesAt == 4660)
        #expect(SigningKeys.active(records, at: 1000) == "old")
        #expect(SigningKeys.active(records, at: 4659) == "old")
        #expect(SigningKeys.active(records, at: 4660) == "new")
        #expect(SigningKeys.isPublished(new, at: 1000))
        // The old key stays published until its last token (signed just before 4660) has expired.
        let oldUpdated = updated.first { $0.kid == "old" }!
        #expect(SigningKeys.isPublished(oldUpdated, at: 4660 + 3599))
        #expect(!SigningKeys.isPublished(oldUpdated, at: 4660 + 3600 + 300))
    }

    @Test("a verifier that cached the key set from an instance that had not reloaded yet knows the new key before it signs",
          arguments: [1, 2, 4, 60, 300, 3600, 86_400] as [Int64])
    func staleInstanceCaches(maxAge: Int64) {
        let rotatedAt: Int64 = 1_000
        let (_, new) = SigningKeys.rotate([], adding: key("new", created: rotatedAt, activates: rotatedAt), now: rotatedAt,
                                          keyCacheMaxAge: maxAge, tokenLifetime: 3600)
        // The latest moment an instance may still serve the old set: just before its next reload.
        let lastStaleFetch = rotatedAt * 1000 + SigningKeys.reloadIntervalMilliseconds(keyCacheMaxAge: maxAge)
        let staleCacheExpires = lastStaleFetch + maxAge * 1000
        #expect(new.activatesAt * 1000 >= staleCacheExpires)
    }

    @Test("instances reload keys every quarter max-age, between 250 ms and one minute")
    func reloadInterval() {
        #expect(SigningKeys.reloadIntervalMilliseconds(keyCacheMaxAge: 0) == 250)
        #expect(SigningKeys.reloadIntervalMilliseconds(keyCacheMaxAge: 2) == 500)
        #expect(SigningKeys.reloadIntervalMilliseconds(keyCacheMaxAge: 3600) == 60_000)
    }

    @Test("an unpublished key never signs")
    func retiredKeyDoesNotSign() {
        let retired = key("r", created: 0, activates: 0, unpublish: 10)
        #expect(SigningKeys.active([retired], at: 11) == nil)
    }

    @Test("rotation does not extend the life of an already retiring key")
    func keepsEarlierRetirement() {
        let retiring = key("a", created: 0, activates: 0, unpublish: 500)
        let (updated, _) = SigningKeys.rotate([retiring], adding: key("b", created: 100, activates: 100), now: 100,
                                              keyCacheMaxAge: 3600, tokenLifetime: 3600)
        #expect(updated.isEmpty)
    }
}
