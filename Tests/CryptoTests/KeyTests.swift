import Testing
@testable import Crypto
import WireFormats

/// Keys generated once per test run: RSA generation costs tens of milliseconds.
enum SharedKeys {
    static let rsa = try! RSAPrivateKey.generate()
    static let otherRSA = try! RSAPrivateKey.generate()
    static let p256 = try! P256PrivateKey.generate()
    static let otherP256 = try! P256PrivateKey.generate()
}

@Suite("RSA keys")
struct RSAKeyTests {
    @Test("a private key survives a PKCS#8 PEM round trip and still signs verifiably")
    func privatePEMRoundTrip() throws {
        let pem = try SharedKeys.rsa.pkcs8PEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let reloaded = try RSAPrivateKey(pem: pem)
        #expect(reloaded.publicKey.modulus == SharedKeys.rsa.publicKey.modulus)
        let signature = try reloaded.signSHA256(Array("hi".utf8))
        #expect(SharedKeys.rsa.publicKey.verifySHA256(signature: signature, message: Array("hi".utf8)))
    }

    @Test("a public key survives an SPKI PEM round trip")
    func publicPEMRoundTrip() throws {
        let pem = try SharedKeys.rsa.publicKey.spkiPEM()
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let reloaded = try RSAPublicKey(pem: pem)
        #expect(reloaded.modulus == SharedKeys.rsa.publicKey.modulus)
        #expect(reloaded.exponent == [0x01, 0x00, 0x01])
        #expect(reloaded.key.bits == 2048)
        #expect(reloaded.modulus.count == 256)
    }

    @Test("PKCS#1 private and public PEM load and describe the same key as SPKI")
    func pkcs1Formats() throws {
        let privateKey = try RSAPrivateKey(pem: PEMFixtures.rsaPKCS1Private)
        let pkcs1Public = try RSAPublicKey(pem: PEMFixtures.rsaPKCS1Public)
        let spkiPublic = try RSAPublicKey(pem: PEMFixtures.rsaSPKIPublic)
        #expect(privateKey.publicKey.modulus == pkcs1Public.modulus)
        #expect(pkcs1Public.modulus == spkiPublic.modulus)
        #expect(try pkcs1Public.spkiPEM() == PEMFixtures.rsaSPKIPublic + "\n")
    }

    @Test("signatures are deterministic and bound to the message and key")
    func signAndVerify() throws {
        let message = Array("payload".utf8)
        let signature = try SharedKeys.rsa.signSHA256(message)
        #expect(signature.count == 256)
        #expect(try SharedKeys.rsa.signSHA256(message) == signature)
        #expect(SharedKeys.rsa.publicKey.verifySHA256(signature: signature, message: message))
        #expect(!SharedKeys.rsa.publicKey.verifySHA256(signature: signature, message: Array("payloae".utf8)))
        #expect(!SharedKeys.otherRSA.publicKey.verifySHA256(signature: signature, message: message))
        #expect(!SharedKeys.rsa.publicKey.verifySHA256(signature: [], message: message))
        #expect(!SharedKeys.rsa.publicKey.verifySHA256(signature: Array(signature.dropLast()), message: message))
    }

    @Test("garbage, encrypted, mismatched and weak keys are refused")
    func refusals() {
        #expect(throws: CryptoError.invalidPEM) { try RSAPrivateKey(pem: "not a key") }
        #expect(throws: CryptoError.invalidPEM) {
            try RSAPrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        }
        #expect(throws: CryptoError.invalidPEM) { try RSAPublicKey(pem: "") }
        #expect(throws: CryptoError.invalidPEM) { try RSAPublicKey(pem: PEMFixtures.rsaPKCS1Private) }
        #expect(throws: CryptoError.invalidKey("not an RSA key")) { try RSAPrivateKey(pem: PEMFixtures.p256SEC1Private) }
        #expect(throws: CryptoError.invalidPEM) { try RSAPrivateKey(pem: PEMFixtures.p256EncryptedPKCS8) }
        // A made-up odd 1024-bit modulus: the size floor applies before any arithmetic.
        let smallModulus = [0xC0] + [UInt8](repeating: 0x5A, count: 126) + [0x01]
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: smallModulus, exponent: [1, 0, 1]) }
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: [], exponent: [1, 0, 1]) }
        #expect(throws: CryptoError.self) {
            try RSAPublicKey(modulus: SharedKeys.rsa.publicKey.modulus, exponent: [1, 0, 0])
        }
        #expect(throws: CryptoError.self) { try RSAPrivateKey.generate(bits: 1024) }
    }

    @Test("a key built from modulus and exponent equals the original")
    func componentsRoundTrip() throws {
        let original = SharedKeys.rsa.publicKey
        let rebuilt = try RSAPublicKey(modulus: [0, 0] + original.modulus, exponent: original.exponent)
        #expect(rebuilt.modulus == original.modulus)
        #expect(try rebuilt.spkiPEM() == original.spkiPEM())
    }

    @Test("one key signs and verifies from many tasks at once")
    func concurrentUse() async throws {
        let key = SharedKeys.rsa
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let message = Array("message \(index)".utf8)
                    let signature = try key.signSHA256(message)
                    return key.publicKey.verifySHA256(signature: signature, message: message)
                }
            }
            var all: [Bool] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results == [Bool](repeating: true, count: 16))
    }
}

@Suite("P-256 keys")
struct P256KeyTests {
    @Test("a private key survives a PKCS#8 PEM round trip")
    func privatePEMRoundTrip() throws {
        let pem = try SharedKeys.p256.pkcs8PEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let reloaded = try P256PrivateKey(pem: pem)
        #expect(reloaded.publicKey.x == SharedKeys.p256.publicKey.x)
        #expect(reloaded.publicKey.y == SharedKeys.p256.publicKey.y)
    }

    @Test("a public key survives SPKI PEM and coordinate round trips")
    func publicRoundTrips() throws {
        let original = SharedKeys.p256.publicKey
        let fromPEM = try P256PublicKey(pem: original.spkiPEM())
        let fromCoordinates = try P256PublicKey(x: original.x, y: original.y)
        #expect(fromPEM.x == original.x && fromPEM.y == original.y)
        #expect(try fromCoordinates.spkiPEM() == original.spkiPEM())
        #expect(original.x.count == 32 && original.y.count == 32)
    }

    @Test("SEC1 PEM loads, and its public point matches openssl's")
    func sec1Format() throws {
        let key = try P256PrivateKey(pem: PEMFixtures.p256SEC1Private)
        #expect(Hex.encode(key.publicKey.x) == PEMFixtures.p256X)
        #expect(Hex.encode(key.publicKey.y) == PEMFixtures.p256Y)
    }

    @Test("signatures are raw 64-byte r||s that verify only for their message and key")
    func signAndVerify() throws {
        let message = Array("payload".utf8)
        let signature = try SharedKeys.p256.signSHA256(message)
        #expect(signature.count == 64)
        let publicKey = SharedKeys.p256.publicKey
        #expect(publicKey.verifySHA256(rawSignature: signature, message: message))
        #expect(!publicKey.verifySHA256(rawSignature: signature, message: Array("payloae".utf8)))
        #expect(!SharedKeys.otherP256.publicKey.verifySHA256(rawSignature: signature, message: message))
        #expect(!publicKey.verifySHA256(rawSignature: Array(signature.dropLast()), message: message))
        #expect(!publicKey.verifySHA256(rawSignature: signature + [0], message: message))
        #expect(!publicKey.verifySHA256(rawSignature: [UInt8](repeating: 0, count: 64), message: message))
        let der = try #require(ECDSASignature.derFromRaw(signature))
        #expect(!publicKey.verifySHA256(rawSignature: der, message: message))
        #expect(try ECDSASignature.rawFromDER(der) == signature)
    }

    @Test("other curves, RSA keys, off-curve points and garbage are refused")
    func refusals() {
        #expect(throws: CryptoError.invalidKey("not a P-256 key")) { try P256PrivateKey(pem: PEMFixtures.p384SEC1Private) }
        #expect(throws: CryptoError.invalidKey("not a P-256 key")) { try P256PrivateKey(pem: PEMFixtures.rsaPKCS1Private) }
        #expect(throws: CryptoError.invalidKey("not a P-256 key")) { try P256PublicKey(pem: PEMFixtures.rsaSPKIPublic) }
        #expect(throws: CryptoError.invalidPEM) { try P256PublicKey(pem: PEMFixtures.rsaPKCS1Public) }
        #expect(throws: CryptoError.invalidPEM) { try P256PrivateKey(pem: "-----BEGIN EC PRIVATE KEY-----\n") }
        #expect(throws: CryptoError.invalidPEM) { try P256PrivateKey(pem: PEMFixtures.p256EncryptedPKCS8) }
        let x = SharedKeys.p256.publicKey.x
        var y = SharedKeys.p256.publicKey.y
        y[31] ^= 0x01
        #expect(throws: CryptoError.self) { try P256PublicKey(x: x, y: y) }
        #expect(throws: CryptoError.self) { try P256PublicKey(x: Array(x.dropFirst()), y: y) }
    }
}
