import Testing
@testable import Crypto
import WireFormats

@Suite("scrypt and Firebase's modified scrypt")
struct ScryptTests {
    @Test("scrypt matches RFC 7914 §12 for the empty password and salt")
    func rfc7914Empty() throws {
        let key = try Scrypt.derive(password: [], salt: [], n: 16, r: 1, p: 1, length: 64)
        #expect(Hex.encode(key) == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
            + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
    }

    @Test("scrypt matches RFC 7914 §12 for password/NaCl, N=1024, r=8, p=16")
    func rfc7914Password() throws {
        let key = try Scrypt.derive(password: Array("password".utf8), salt: Array("NaCl".utf8),
                                    n: 1024, r: 8, p: 16, length: 64)
        #expect(Hex.encode(key) == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
            + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
    }

    @Test("N=32768, r=8 succeeds because maxmem is passed explicitly (OpenSSL's 32 MiB default would refuse it)")
    func largeCostSucceeds() throws {
        let key = try Scrypt.derive(password: Array("pw".utf8), salt: Array("salt".utf8), n: 32768, r: 8, p: 1,
                                    length: 32)
        #expect(key.count == 32)
        #expect(Scrypt.requiredMemory(n: 32768, r: 8, p: 1)! > 32 << 20)
    }

    @Test("an explicit maxMemory below the requirement is reported as a KDF failure")
    func tooLittleMemoryFails() {
        #expect(throws: CryptoError.self) {
            try Scrypt.derive(password: [1], salt: [2], n: 32768, r: 8, p: 1, length: 32, maxMemory: 32 << 20)
        }
    }

    @Test("invalid scrypt parameters are refused before reaching OpenSSL")
    func invalidParameters() {
        #expect(throws: CryptoError.kdfFailed("N must be a power of two greater than 1")) {
            try Scrypt.derive(password: [], salt: [], n: 1000, r: 8, p: 1, length: 32)
        }
        #expect(throws: CryptoError.kdfFailed("r and p must be at least 1")) {
            try Scrypt.derive(password: [], salt: [], n: 16, r: 0, p: 1, length: 32)
        }
        #expect(throws: CryptoError.kdfFailed("output length must be at least 1")) {
            try Scrypt.derive(password: [], salt: [], n: 16, r: 1, p: 1, length: 0)
        }
        #expect(throws: CryptoError.self) {
            try Scrypt.derive(password: [], salt: [], n: 1 << 40, r: 8, p: 1, length: 32)
        }
    }

    // The firebase/scrypt README example.
    static let signerKey = Base64.decode(
        "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")!
    static let saltSeparator = Base64.decode("Bw==")!
    static let salt = Base64.decode("42xEC+ixf3L2lw==")!
    static let expected = Base64.decode(
        "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")!

    @Test("Firebase scrypt reproduces the firebase/scrypt README hash")
    func firebaseKnownAnswer() throws {
        let hash = try FirebaseScrypt.hash(password: Array("user1password".utf8), salt: Self.salt,
                                           saltSeparator: Self.saltSeparator, signerKey: Self.signerKey,
                                           rounds: 8, memoryCost: 14)
        #expect(hash == Self.expected)
    }

    @Test("Firebase scrypt verifies the right password and rejects a wrong one")
    func firebaseVerify() {
        func verify(_ password: String, rounds: Int = 8) -> Bool {
            FirebaseScrypt.verify(password: Array(password.utf8), salt: Self.salt, saltSeparator: Self.saltSeparator,
                                  signerKey: Self.signerKey, rounds: rounds, memoryCost: 14,
                                  expectedHash: Self.expected)
        }
        #expect(verify("user1password"))
        #expect(!verify("user1passwore"))
        #expect(!verify(""))
        #expect(!verify("user1password", rounds: 7))
        #expect(!verify("user1password", rounds: 0))
    }

    @Test("Firebase parameters outside Firebase's ranges are refused")
    func firebaseParameterRanges() {
        #expect(throws: CryptoError.invalidInput("memory cost must be in 1...14")) {
            try FirebaseScrypt.hash(password: [], salt: [], saltSeparator: [], signerKey: [1], rounds: 8,
                                    memoryCost: 20)
        }
        #expect(throws: CryptoError.invalidInput("rounds must be in 1...8")) {
            try FirebaseScrypt.hash(password: [], salt: [], saltSeparator: [], signerKey: [1], rounds: 9,
                                    memoryCost: 14)
        }
    }
}
