import Foundation
import Testing
@testable import Crypto
import WireFormats

@Suite("JWS compact serialization")
struct JWSTests {
    static func rfcRSAKey() throws -> RSAPublicKey {
        try RSAPublicKey(modulus: #require(Base64URL.decode(RFC7515.RSAKey.n)),
                         exponent: #require(Base64URL.decode(RFC7515.RSAKey.e)))
    }

    static func rfcP256Key() throws -> P256PublicKey {
        try P256PublicKey(x: #require(Base64URL.decode(RFC7515.es256X)), y: #require(Base64URL.decode(RFC7515.es256Y)))
    }

    @Test("the RFC 7515 A.2 RS256 signature verifies with the published n and e")
    func rfcRS256Verifies() throws {
        let jws = try CompactJWS(parsing: RFC7515.rs256Compact)
        #expect(jws.header == JOSEHeader(alg: "RS256"))
        #expect(String(decoding: jws.payloadBytes, as: UTF8.self).hasPrefix("{\"iss\":\"joe\",\r\n"))
        #expect(jws.signature.count == 256)
        #expect(jws.isSignatureValid(using: .rs256(try Self.rfcRSAKey())))
    }

    @Test("signing A.2's input with A.2's private key reproduces the published signature byte for byte")
    func rfcRS256SignsDeterministically() throws {
        func number(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }
        let key = try RSAPrivateKey(modulus: number(RFC7515.RSAKey.n), publicExponent: number(RFC7515.RSAKey.e),
                                    privateExponent: number(RFC7515.RSAKey.d), prime1: number(RFC7515.RSAKey.p),
                                    prime2: number(RFC7515.RSAKey.q), exponent1: number(RFC7515.RSAKey.dp),
                                    exponent2: number(RFC7515.RSAKey.dq), coefficient: number(RFC7515.RSAKey.qi))
        let jws = try CompactJWS(parsing: RFC7515.rs256Compact)
        #expect(try key.signSHA256(jws.signingInput) == jws.signature)
        // The whole compact token, as JWS builds it: its header {"alg":"RS256"} is A.2's, byte for byte.
        #expect(try JWS.signRS256(payload: jws.payloadBytes, key: key, kid: nil, typ: nil) == RFC7515.rs256Compact)
    }

    @Test("the RFC 7515 A.3 ES256 signature verifies with the published x and y")
    func rfcES256Verifies() throws {
        let jws = try CompactJWS(parsing: RFC7515.es256Compact)
        #expect(jws.header.alg == "ES256")
        #expect(jws.signature.count == 64)
        #expect(jws.isSignatureValid(using: .es256(try Self.rfcP256Key())))
    }

    @Test("generated keys sign tokens that verify, with a sorted header and nil fields omitted")
    func signAndVerifyRoundTrip() throws {
        let payload = Array(#"{"sub":"u1"}"#.utf8)
        let rsaToken = try JWS.signRS256(payload: payload, key: SharedKeys.rsa, kid: "k1")
        let rsaJWS = try CompactJWS(parsing: rsaToken)
        #expect(String(decoding: rsaJWS.headerBytes, as: UTF8.self) == #"{"alg":"RS256","kid":"k1","typ":"JWT"}"#)
        #expect(rsaJWS.payloadBytes == payload)
        #expect(rsaJWS.isSignatureValid(using: .rs256(SharedKeys.rsa.publicKey)))

        let ecToken = try JWS.signES256(payload: payload, key: SharedKeys.p256, kid: nil, typ: nil)
        let ecJWS = try CompactJWS(parsing: ecToken)
        #expect(String(decoding: ecJWS.headerBytes, as: UTF8.self) == #"{"alg":"ES256"}"#)
        #expect(ecJWS.isSignatureValid(using: .es256(SharedKeys.p256.publicKey)))
    }

    @Test("a tampered payload or a different key fails verification")
    func tamperingAndWrongKeys() throws {
        let token = try JWS.signRS256(payload: Array(#"{"admin":false}"#.utf8), key: SharedKeys.rsa, kid: "k1")
        let parts = token.split(separator: ".").map(String.init)
        let forged = parts[0] + "." + Base64URL.encode(Array(#"{"admin":true}"#.utf8)) + "." + parts[2]
        #expect(!(try CompactJWS(parsing: forged)).isSignatureValid(using: .rs256(SharedKeys.rsa.publicKey)))
        #expect(!(try CompactJWS(parsing: token)).isSignatureValid(using: .rs256(SharedKeys.otherRSA.publicKey)))

        let ecToken = try JWS.signES256(payload: [1], key: SharedKeys.p256, kid: nil)
        #expect(!(try CompactJWS(parsing: ecToken)).isSignatureValid(using: .es256(SharedKeys.otherP256.publicKey)))
    }

    @Test("alg none is never accepted")
    func algNoneRejected() throws {
        let header = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))
        let unsigned = try CompactJWS(parsing: header + "." + RFC7515.payloadSegment + ".")
        #expect(unsigned.signature.isEmpty)
        #expect(!unsigned.isSignatureValid(using: .rs256(SharedKeys.rsa.publicKey)))
        #expect(!unsigned.isSignatureValid(using: .es256(SharedKeys.p256.publicKey)))
    }

    @Test("HS256 signed with the RSA public key's bytes as the HMAC secret is rejected")
    func algorithmConfusionRejected() throws {
        let publicPEM = try SharedKeys.rsa.publicKey.spkiPEM()
        let signingInput = Base64URL.encode(Array(#"{"alg":"HS256"}"#.utf8)) + "." + RFC7515.payloadSegment
        for secret in [Array(publicPEM.utf8), SharedKeys.rsa.publicKey.modulus] {
            let tag = HMACSHA256.authenticate(key: secret, message: Array(signingInput.utf8))
            let token = try CompactJWS(parsing: signingInput + "." + Base64URL.encode(tag))
            #expect(!token.isSignatureValid(using: .rs256(SharedKeys.rsa.publicKey)))
        }
    }

    @Test("an RS256 token checked with an ES256 key, and the reverse, is rejected")
    func crossAlgorithmRejected() throws {
        let rsaToken = try CompactJWS(parsing: RFC7515.rs256Compact)
        #expect(!rsaToken.isSignatureValid(using: .es256(try Self.rfcP256Key())))
        let ecToken = try CompactJWS(parsing: RFC7515.es256Compact)
        #expect(!ecToken.isSignatureValid(using: .rs256(try Self.rfcRSAKey())))
        // A genuine ES256 signature relabelled as RS256 does not pass either key.
        let relabelled = Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8)) + "." + RFC7515.payloadSegment + "."
            + RFC7515.es256Compact.split(separator: ".")[2]
        let token = try CompactJWS(parsing: relabelled)
        #expect(!token.isSignatureValid(using: .es256(try Self.rfcP256Key())))
        #expect(!token.isSignatureValid(using: .rs256(try Self.rfcRSAKey())))
    }

    @Test("malformed compact strings are refused as invalid input", arguments: [
        "", "a.b", "a.b.c.d", ".e30.", "eyJhbGciOiJSUzI1NiJ9.e30", "eyJhbGciOiJSUzI1NiJ9.e3+.",
        "eyJhbGciOiJSUzI1NiJ9.e30.a*b", "bm90anNvbg.e30.", "WyJSUzI1NiJd.e30.", "eyJ0eXAiOiJKV1QifQ.e30.",
        "eyJhbGciOjI1Nn0.e30.", "eyJhbGciOiJSUzI1NiIsImNyaXQiOlsiZXhwIl19.e30.",
        "eyJhbGciOiJSUzI1NiJ9.e30.AA==", "eyJhbGciOiJSUzI1NiJ9.e30=.",
    ])
    func malformedInput(_ compact: String) {
        let error = #expect(throws: CryptoError.self) { try CompactJWS(parsing: compact) }
        if case .invalidInput? = error {} else { Issue.record("expected invalidInput, got \(String(describing: error))") }
    }
}
