import Foundation
import Testing
@testable import Crypto
import WireFormats

@Suite("JWK and JWK sets")
struct JWKTests {
    @Test("the RFC 7517 A.1 key set decodes, and each key becomes a working key of its algorithm")
    func rfcKeySet() throws {
        let set = try JSONDecoder().decode(JWKSet.self, from: Data(RFC7517.publicKeySet.utf8))
        #expect(set.keys.count == 2)

        let ecJWK = try #require(set.key(withID: "1"))
        guard case .es256(let ecKey) = try ecJWK.verificationKey() else {
            Issue.record("EC JWK did not become an ES256 key")
            return
        }
        #expect(Base64URL.encode(ecKey.x) == "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4")
        #expect(Base64URL.encode(ecKey.y) == "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM")

        let rsaJWK = try #require(set.key(withID: "2011-04-29"))
        guard case .rs256(let rsaKey) = try rsaJWK.verificationKey() else {
            Issue.record("RSA JWK did not become an RS256 key")
            return
        }
        #expect(rsaKey.key.bits == 2048)
        #expect(Base64URL.encode(rsaKey.modulus) == rsaJWK.n)
        #expect(set.key(withID: "missing") == nil)
    }

    @Test("the RFC 7515 A.2 and A.3 keys as JWKs verify their published signatures")
    func rfcJWKsVerify() throws {
        let rsa = JWK(kty: "RSA", n: RFC7515.RSAKey.n, e: RFC7515.RSAKey.e)
        let ec = JWK(kty: "EC", crv: "P-256", x: RFC7515.es256X, y: RFC7515.es256Y)
        #expect(try CompactJWS(parsing: RFC7515.rs256Compact).isSignatureValid(using: rsa.verificationKey()))
        #expect(try CompactJWS(parsing: RFC7515.es256Compact).isSignatureValid(using: ec.verificationKey()))
    }

    @Test("publishing a key as a JWK round-trips n/e and x/y")
    func publishRoundTrip() throws {
        let rsaJWK = JWK(rsa: SharedKeys.rsa.publicKey, kid: "r1")
        #expect(rsaJWK.kty == "RSA" && rsaJWK.alg == "RS256" && rsaJWK.use == "sig" && rsaJWK.e == "AQAB")
        guard case .rs256(let rsaKey) = try rsaJWK.verificationKey() else {
            Issue.record("expected an RS256 key")
            return
        }
        #expect(rsaKey.modulus == SharedKeys.rsa.publicKey.modulus)
        #expect(rsaKey.exponent == SharedKeys.rsa.publicKey.exponent)

        let ecJWK = JWK(p256: SharedKeys.p256.publicKey, kid: "e1")
        #expect(ecJWK.crv == "P-256" && ecJWK.alg == "ES256")
        guard case .es256(let ecKey) = try ecJWK.verificationKey() else {
            Issue.record("expected an ES256 key")
            return
        }
        #expect(ecKey.x == SharedKeys.p256.publicKey.x && ecKey.y == SharedKeys.p256.publicKey.y)
    }

    @Test("a JWK set encodes without null members and decodes to an equal value")
    func jsonRoundTrip() throws {
        let set = JWKSet(keys: [JWK(rsa: SharedKeys.rsa.publicKey, kid: "r1"), JWK(p256: SharedKeys.p256.publicKey, kid: nil)])
        let json = try JSONEncoder().encode(set)
        #expect(!String(decoding: json, as: UTF8.self).contains("null"))
        #expect(try JSONDecoder().decode(JWKSet.self, from: json) == set)
    }

    @Test("the algorithm comes from kty and crv; a disagreeing alg or unsupported key is refused")
    func refusals() {
        let n = RFC7515.RSAKey.n
        let x = RFC7515.es256X
        let y = RFC7515.es256Y
        let refused: [JWK] = [
            JWK(kty: "RSA", alg: "ES256", n: n, e: "AQAB"),
            JWK(kty: "RSA", alg: "HS256", n: n, e: "AQAB"),
            JWK(kty: "RSA", alg: "PS256", n: n, e: "AQAB"),
            JWK(kty: "RSA", n: n),
            JWK(kty: "RSA", n: n + "*", e: "AQAB"),
            JWK(kty: "EC", alg: "RS256", crv: "P-256", x: x, y: y),
            JWK(kty: "EC", crv: "P-384", x: x, y: y),
            JWK(kty: "EC", crv: "P-256", x: x),
            JWK(kty: "EC", crv: "P-256", x: x, y: x),
            JWK(kty: "oct"),
            JWK(kty: "OKP", crv: "Ed25519", x: x),
        ]
        for jwk in refused {
            #expect(throws: CryptoError.self, "\(jwk)") { try jwk.verificationKey() }
        }
    }
}
