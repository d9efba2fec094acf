import Crypto
import Synchronization
import Testing
@testable import Gateway

@Suite("service-account keys: parsed once per PEM, trusted only while the stored account lists them")
struct ServiceAccountKeyCacheTests {
    @Test("the same PEM gives the same key object without parsing again; another PEM gives another key")
    func parsesOncePerText() throws {
        let cache = ServiceAccountKeyCache()
        let first = try TestServiceAccount.make("first"), second = try TestServiceAccount.make("second")
        let parses = Mutex(0)
        let parse: (String) -> RSAPublicKey? = { pem in
            parses.withLock { $0 += 1 }
            return ServiceAccount.publicKey(pem)
        }
        let pem = try first.key.publicKey.spkiPEM()
        let a = try #require(cache.publicKey(pem, parse: parse))
        let b = try #require(cache.publicKey(pem, parse: parse))
        #expect(a === b)
        #expect(parses.withLock { $0 } == 1)
        let other = try #require(cache.publicKey(try second.key.publicKey.spkiPEM(), parse: parse))
        #expect(other !== a)
        #expect(parses.withLock { $0 } == 2)
    }

    @Test("text that does not parse is not remembered, and the cache stays within its capacity")
    func refusalsAndBound() throws {
        let cache = ServiceAccountKeyCache(capacity: 2)
        #expect(cache.publicKey("not a key", parse: ServiceAccount.publicKey) == nil)
        #expect(cache.count == 0)
        for name in ["a", "b", "c"] {
            let pem = try TestServiceAccount.make(name).key.publicKey.spkiPEM()
            #expect(cache.publicKey(pem, parse: ServiceAccount.publicKey) != nil)
            #expect(cache.count <= 2)
        }
    }

    @Test("an account's verification keys come from the cache: the second custom token reuses the parsed key")
    func verificationKeysUseTheCache() throws {
        let cache = ServiceAccountKeyCache()
        let record = try TestServiceAccount.make().record
        let first = record.verificationKeys(kid: nil, cache: cache)
        let second = record.verificationKeys(kid: nil, cache: cache)
        #expect(first.count == 1 && second.count == 1)
        #expect(first[0] === second[0])
    }

    @Test("a key removed from the stored account is refused at once, though its parsed form is still cached")
    func removalWinsOverTheCache() async throws {
        let gw = try await TestGateway.make()
        let old = try TestServiceAccount.make()
        let new = TestServiceAccount(email: old.email, keyId: "kid-rotated", key: try RSAPrivateKey.generate(bits: 2048))
        try await old.register(with: gw)
        try await new.register(with: gw)   // the same account, a second key
        let signedByOld = try old.customToken(uid: "rotating", now: gw.nowSeconds)
        #expect(await CustomTokenTests.signIn(gw, signedByOld).status == 200)   // parsed and cached
        #expect(try await gw.app.services.serviceAccounts.remove(old.email, keyId: old.keyId))
        #expect(await CustomTokenTests.signIn(gw, signedByOld).error?.hasPrefix("INVALID_CUSTOM_TOKEN") == true)
        #expect(await CustomTokenTests.signIn(gw, try new.customToken(uid: "rotating", now: gw.nowSeconds)).status == 200)
        #expect(try await gw.app.services.serviceAccounts.remove(old.email))
        #expect(await CustomTokenTests.signIn(gw, try new.customToken(uid: "rotating", now: gw.nowSeconds)).error
            == "CREDENTIAL_MISMATCH : The custom token was not signed by a service account of this project.")
    }
}
