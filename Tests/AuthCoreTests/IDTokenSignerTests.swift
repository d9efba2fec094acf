import AuthCore
import Crypto
import Foundation
import Testing
import WireFormats

@Suite("ID token signing and verification")
struct IDTokenSignerTests {
    let time = ManualTime(milliseconds: 1_800_000_000_000)
    let sealer = Sealer(masterKey: SymmetricKey.generate())
    let settings = TokenSettings(projectId: "proj")

    func ring(kid: String = "k1", key: RSAPrivateKey? = nil) throws -> (KeyRing, RSAPrivateKey) {
        let key = try key ?? RSAPrivateKey.generate()
        let record = SigningKeyRecord(
            kid: kid, algorithm: "RS256",
            sealedPrivateKey: try sealer.seal(Array(try key.pkcs8PEM().utf8), purpose: SigningKeys.sealingPurpose),
            publicKeyPEM: try key.publicKey.spkiPEM(), certificatePEM: "", createdAt: 0, activatesAt: 0)
        let ring = KeyRing()
        try ring.load([record], sealer: sealer)
        return (ring, key)
    }

    func claims(iat: Int64? = nil, iss: String? = nil, aud: String = "proj", sub: String = "u1") -> JSONObject {
        let now = iat ?? time.nowSeconds
        return ["iss": .string(iss ?? settings.issuer), "aud": .string(aud), "sub": .string(sub), "iat": .int(now),
                "exp": .int(now + 3600), "auth_time": .int(now), "firebase": ["sign_in_provider": "anonymous"]]
    }

    @Test("a token we signed verifies and reports its subject and provider")
    func roundTrip() throws {
        let (ring, _) = try ring()
        let signer = IDTokenSigner(settings: settings, keyRing: ring, time: time)
        let verified = try signer.verify(try signer.sign(claims()))
        #expect(verified.localId == "u1")
        #expect(verified.signInProvider == "anonymous")
        let header = try CompactJWS(parsing: try signer.sign(claims())).header
        #expect(header.alg == "RS256" && header.kid == "k1" && header.typ == "JWT")
    }

    @Test("each check rejects: issuer, audience, subject, future iat, expiry", arguments: [
        "iss", "aud", "sub-empty", "iat-future", "expired",
    ])
    func checks(_ broken: String) throws {
        let (ring, _) = try ring()
        let signer = IDTokenSigner(settings: settings, keyRing: ring, time: time)
        let now = time.nowSeconds
        let token: JSONObject
        switch broken {
        case "iss": token = claims(iss: "https://securetoken.google.com/other")
        case "aud": token = claims(aud: "other")
        case "sub-empty": token = claims(sub: "")
        case "iat-future": token = claims(iat: now + 600)
        default: token = claims(iat: now - 7200)
        }
        let expected: AuthError = broken == "expired" ? .tokenExpired : .invalidIdToken
        #expect(throws: expected) { try signer.verify(try signer.sign(token)) }
    }

    @Test("tampered payloads, foreign keys, unknown kids and alg none are INVALID_ID_TOKEN")
    func forgeries() throws {
        let (ring, _) = try ring()
        let signer = IDTokenSigner(settings: settings, keyRing: ring, time: time)
        let good = try signer.sign(claims())
        let parts = good.split(separator: ".").map(String.init)
        var payload = try JSONParser.parse(Base64URL.decode(parts[1])!).objectValue!
        payload["sub"] = "someone-else"
        let tampered = parts[0] + "." + Base64URL.encode(JSONSerializer.bytes(.object(payload))) + "." + parts[2]
        #expect(throws: AuthError.invalidIdToken) { try signer.verify(tampered) }

        let (_, otherKey) = try self.ring()
        let foreign = try JWS.signRS256(payload: JSONSerializer.bytes(.object(claims())), key: otherKey, kid: "k1")
        #expect(throws: AuthError.invalidIdToken) { try signer.verify(foreign) }

        let unknownKid = try JWS.signRS256(payload: JSONSerializer.bytes(.object(claims())), key: otherKey, kid: "k9")
        #expect(throws: AuthError.invalidIdToken) { try signer.verify(unknownKid) }

        let none = Base64URL.encode(Array(#"{"alg":"none","kid":"k1"}"#.utf8)) + "." + parts[1] + "."
        #expect(throws: AuthError.invalidIdToken) { try signer.verify(none) }
        #expect(throws: AuthError.invalidIdToken) { try signer.verify("not a token") }
    }
}

@Suite("secrets at rest")
struct SecretsTests {
    @Test("sealed values open only with the same master key and purpose")
    func sealing() throws {
        let key = SymmetricKey.generate()
        let sealer = Sealer(masterKey: key)
        let sealed = try sealer.seal(Array("secret".utf8), purpose: "a")
        #expect(try sealer.open(sealed, purpose: "a") == Array("secret".utf8))
        #expect(throws: CryptoError.self) { try sealer.open(sealed, purpose: "b") }
        #expect(throws: CryptoError.self) { try Sealer(masterKey: SymmetricKey.generate()).open(sealed, purpose: "a") }
    }

    @Test("the master key file is created with mode 0600 and read back on the next start")
    func masterKeyFile() throws {
        let directory = NSTemporaryDirectory() + "mk-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (first, source) = try MasterKey.load(environmentValue: nil, dataDirectory: directory)
        #expect(source == "file (created)")
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/master.key")[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let (second, _) = try MasterKey.load(environmentValue: nil, dataDirectory: directory)
        #expect(first.bytes == second.bytes)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: directory + "/master.key")
        #expect(throws: MasterKey.LoadError.self) { try MasterKey.load(environmentValue: nil, dataDirectory: directory) }
    }

    @Test("the environment value wins and must be 32 bytes in hex or base64")
    func environmentKey() throws {
        let hex = String(repeating: "ab", count: 32)
        let (key, source) = try MasterKey.load(environmentValue: hex, dataDirectory: "/nonexistent")
        #expect(source == "environment" && key.bytes == [UInt8](repeating: 0xAB, count: 32))
        #expect(throws: MasterKey.LoadError.self) { try MasterKey.load(environmentValue: "short", dataDirectory: "/nonexistent") }
    }
}
