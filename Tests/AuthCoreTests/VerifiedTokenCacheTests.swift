import AuthCore
import Crypto
import Testing
import WireFormats

/// A token that passed once is remembered (`VerifiedTokenCache`), but every check that can change must still run.
@Suite("remembered ID-token checks")
struct VerifiedTokenCacheTests {
    let time = ManualTime(milliseconds: 1_800_000_000_000)
    let sealer = Sealer(masterKey: SymmetricKey.generate())
    let settings = TokenSettings(projectId: "proj")

    func record(kid: String = "k1", key: RSAPrivateKey, unpublishAt: Int64? = nil) throws -> SigningKeyRecord {
        var record = SigningKeyRecord(
            kid: kid, algorithm: "RS256",
            sealedPrivateKey: try sealer.seal(Array(try key.pkcs8PEM().utf8), purpose: SigningKeys.sealingPurpose),
            publicKeyPEM: try key.publicKey.spkiPEM(), certificatePEM: "", createdAt: 0, activatesAt: 0)
        record.unpublishAt = unpublishAt
        return record
    }

    func claims(sub: String = "u1") -> JSONObject {
        let now = time.nowSeconds
        return ["iss": .string(settings.issuer), "aud": "proj", "sub": .string(sub), "iat": .int(now),
                "exp": .int(now + 3600), "auth_time": .int(now), "firebase": ["sign_in_provider": "anonymous"]]
    }

    func signer(_ records: [SigningKeyRecord], capacity: Int = 8192) throws -> (IDTokenSigner, KeyRing) {
        let ring = KeyRing()
        try ring.load(records, sealer: sealer)
        return (IDTokenSigner(settings: settings, keyRing: ring, time: time,
                              verifiedTokens: VerifiedTokenCache(capacity: capacity)), ring)
    }

    @Test("a token that passed is remembered once and answers the same claims again")
    func remembers() throws {
        let (signer, _) = try signer([try record(key: RSAPrivateKey.generate())])
        let token = try signer.sign(claims())
        let first = try signer.verify(token)
        let second = try signer.verify(token)
        #expect(signer.verifiedTokens.count == 1)
        #expect(first.localId == "u1" && second.localId == "u1" && second.expiresAt == first.expiresAt)
    }

    @Test("a remembered token still expires")
    func expiry() throws {
        let (signer, _) = try signer([try record(key: RSAPrivateKey.generate())])
        let token = try signer.sign(claims())
        _ = try signer.verify(token)
        time.advance(seconds: 3600 + settings.clockSkew + 1)
        #expect(throws: AuthError.tokenExpired) { try signer.verify(token) }
    }

    @Test("a remembered token is refused once its key is no longer published, or its kid names another key")
    func keyChanges() throws {
        let key = try RSAPrivateKey.generate()
        let (signer, ring) = try signer([try record(key: key)])
        let token = try signer.sign(claims())
        _ = try signer.verify(token)
        try ring.load([try record(key: key, unpublishAt: time.nowSeconds - 1)], sealer: sealer)
        #expect(throws: AuthError.invalidIdToken) { try signer.verify(token) }

        let (other, otherRing) = try self.signer([try record(key: key)])
        let second = try other.sign(claims())
        _ = try other.verify(second)
        try otherRing.load([try record(key: RSAPrivateKey.generate())], sealer: sealer)
        #expect(throws: AuthError.invalidIdToken) { try other.verify(second) }
    }

    @Test("a token differing from a remembered one in any byte is checked in full; failures are not remembered")
    func tampering() throws {
        let (signer, _) = try signer([try record(key: RSAPrivateKey.generate())])
        let good = try signer.sign(claims())
        _ = try signer.verify(good)
        let parts = good.split(separator: ".").map(String.init)
        let forged = parts[0] + "." + Base64URL.encode(JSONSerializer.bytes(.object(claims(sub: "someone-else")))) + "." + parts[2]
        #expect(throws: AuthError.invalidIdToken) { try signer.verify(forged) }
        var flipped = Array(good.utf8)
        flipped[flipped.count - 2] = flipped[flipped.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: AuthError.invalidIdToken) { try signer.verify(String(decoding: flipped, as: UTF8.self)) }
        #expect(signer.verifiedTokens.count == 1)
    }

    @Test("the cache holds at most its capacity")
    func bounded() throws {
        let (signer, _) = try signer([try record(key: RSAPrivateKey.generate())], capacity: 4)
        for index in 0..<10 { _ = try signer.verify(try signer.sign(claims(sub: "u\(index)"))) }
        #expect(signer.verifiedTokens.count <= 4)
        #expect(signer.verifiedTokens.count >= 2)
    }
}
