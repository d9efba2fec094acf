import Testing
@testable import Crypto
import WireFormats

/// One vector per algorithm Firebase's import accepts, generated with Python's hashlib, hmac and bcrypt
/// (password `correct horse`, salt `NaCl-salt`, HMAC key `signer-key`), so the formulas are checked against an
/// independent implementation rather than against themselves.
@Suite("Imported password hashes (Firebase's UserImportHash formulas)")
struct ForeignPasswordHashTests {
    static let password = Array("correct horse".utf8)
    static let salt = Array("NaCl-salt".utf8)
    static let key = Array("signer-key".utf8)

    struct Vector: Sendable, CustomStringConvertible {
        var parameters: ForeignHashParameters
        var hash: String
        var description: String { "\(parameters.algorithm.rawValue) rounds \(parameters.rounds)" }
    }

    static let vectors: [Vector] = [
        Vector(parameters: .init(algorithm: .md5, rounds: 0), hash: "MGI0MjQ2OWE3NGMzNzllZmRlYTI1ZmViMjhkM2ZlNTQ="),
        Vector(parameters: .init(algorithm: .md5, rounds: 2), hash: "icsYvHUNN4f8PJsd2drZuA=="),
        Vector(parameters: .init(algorithm: .sha1, rounds: 1), hash: "twPDkwzKDHQWy4QhUsbRn7l3jXw="),
        Vector(parameters: .init(algorithm: .sha256, rounds: 1, saltFirst: false),
               hash: "HgbbL9SRTXKVwjFlFCVjV1Uvbj3AOPxHXAI4XKWHrmI="),
        Vector(parameters: .init(algorithm: .sha512, rounds: 20),
               hash: "8vGP5so0QuqTqj+8Tq+RVR12UiFhD3+7qXujYb9xVBginPxPJNOwVAEfl4hBbEqnpyJcJRzzUFV9LB2DRwxYlw=="),
        Vector(parameters: .init(algorithm: .hmacMD5, signerKey: key), hash: "RlDFMJg73/93DxymPxc3XA=="),
        Vector(parameters: .init(algorithm: .hmacSHA1, signerKey: key), hash: "hzV/E2zFFHhCIvQ9tCWA9VnfkQA="),
        Vector(parameters: .init(algorithm: .hmacSHA256, signerKey: key),
               hash: "WRvlIcViO1cnOOb80Tz81yGtTf79AMz3I1LFtYwz7Hc="),
        Vector(parameters: .init(algorithm: .hmacSHA256, signerKey: key, saltFirst: true),
               hash: "XAbY3UPsV3rajFBMgJCkPv4eQOQqXkKm2lZv8c6gUnY="),
        Vector(parameters: .init(algorithm: .hmacSHA512, signerKey: key),
               hash: "m0TK1GTvnMwf9esGYU0yfcwCllddT7Tlcs0kCdXSadAnX1B3G08RauOd4xfpzmPDGW36gsMQoaMFBVw4aCmz1w=="),
        Vector(parameters: .init(algorithm: .pbkdf2SHA256, rounds: 1000),
               hash: "8GgLOauGHBHN5T42RKUyaja0mZxgcCvctsjbYuP7E8a4GPga2U2t/Ft9n878x9LZtx7hFXm05Fo7XhDX2hV+9A=="),
        Vector(parameters: .init(algorithm: .pbkdfSHA1, rounds: 1), hash: "npoPiXyFpgOsbfriyB2i99itIEo="),
        Vector(parameters: .init(algorithm: .pbkdfSHA1, rounds: 0), hash: "npoPiXyFpgOsbfriyB2i99itIEo="),
        Vector(parameters: .init(algorithm: .standardScrypt, memoryCost: 1024, parallelization: 2, blockSize: 8,
                                 derivedKeyLength: 48),
               hash: "7n66uV5Nvyt+ISL7KhKLQ+66kzVsxagIcKM7vcdxJIzQd7sP9xte6jf+4EZJ+OI8"),
    ]

    @Test("the right password matches, a wrong one and a changed hash do not", arguments: vectors)
    func vector(_ vector: Vector) throws {
        let hash = try #require(Base64.decode(vector.hash))
        #expect(ForeignPasswordHash.verify(password: Self.password, salt: Self.salt, storedHash: hash,
                                           parameters: vector.parameters))
        #expect(!ForeignPasswordHash.verify(password: Array("correct horsf".utf8), salt: Self.salt, storedHash: hash,
                                            parameters: vector.parameters))
        var changed = hash
        changed[changed.count - 1] ^= 1
        #expect(!ForeignPasswordHash.verify(password: Self.password, salt: Self.salt, storedHash: changed,
                                            parameters: vector.parameters))
    }

    @Test("the hash order matters: the same digest with the other order does not match")
    func orderMatters() throws {
        let hash = try #require(Base64.decode("twPDkwzKDHQWy4QhUsbRn7l3jXw="))
        #expect(!ForeignPasswordHash.verify(password: Self.password, salt: Self.salt, storedHash: hash,
                                            parameters: .init(algorithm: .sha1, rounds: 1, saltFirst: false)))
    }

    @Test("bcrypt from Python's bcrypt and the OpenBSD vector verify through libxcrypt")
    func bcrypt() {
        let stored = Array("$2b$04$3cBelGwWDgTqIdxSVKWjpOvYpqXR2MeR9mKEF0w7z8pyCIAQdhseS".utf8)
        let parameters = ForeignHashParameters(algorithm: .bcrypt)
        #expect(ForeignPasswordHash.verify(password: Self.password, salt: [], storedHash: stored, parameters: parameters))
        #expect(!ForeignPasswordHash.verify(password: Array("correct horsf".utf8), salt: [], storedHash: stored,
                                            parameters: parameters))
        let openBSD = Array("$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW".utf8)
        #expect(ForeignPasswordHash.verify(password: Array("U*U".utf8), salt: [], storedHash: openBSD, parameters: parameters))
    }

    @Test("bcrypt costs above 16 are refused before any work (one hash could hold a KDF thread for minutes)")
    func bcryptCostLimit() {
        let expensive = Array("$2b$31$3cBelGwWDgTqIdxSVKWjpOvYpqXR2MeR9mKEF0w7z8pyCIAQdhseS".utf8)
        #expect(BCrypt.cost(of: expensive) == 31)
        #expect(throws: CryptoError.invalidInput("bcrypt cost above 16")) { try BCrypt.hash(password: [1], setting: expensive) }
        #expect(BCrypt.cost(of: Array("$2b$04$3cBelGwWDgTqIdxSVKWjpOvYpqXR2MeR9mKEF0w7z8pyCIAQdhseS".utf8)) == 4)
    }

    @Test("a crypt(3) string of another method is not accepted as bcrypt")
    func otherCryptMethodsRefused() {
        // SHA-512 crypt of "pw": libxcrypt would verify it, but it is not what the import said.
        let sha512crypt = Array("$6$saltsalt$pauPrmdmG4BTE9h2HPmywiw152IFch6BJCEsaY6D.PLTfpV8sqvXwWdyfsgVgozkYH9B80bAip/08R2BPH2xk/".utf8)
        #expect(throws: CryptoError.self) { try BCrypt.hash(password: Array("pw".utf8), setting: sha512crypt) }
    }

    @Test("Firebase scrypt through the shared entry point matches the published vector")
    func firebaseScrypt() throws {
        let parameters = ForeignHashParameters(
            algorithm: .firebaseScrypt,
            signerKey: try #require(Base64.decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")),
            saltSeparator: try #require(Base64.decode("Bw==")), rounds: 8, memoryCost: 14)
        let hash = try #require(Base64.decode("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="))
        #expect(ForeignPasswordHash.verify(password: Array("user1password".utf8),
                                           salt: try #require(Base64.decode("42xEC+ixf3L2lw==")),
                                           storedHash: hash, parameters: parameters))
    }
}
