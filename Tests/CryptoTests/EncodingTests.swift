import Testing
@testable import Crypto

@Suite("Base64, Base64URL and Hex")
struct EncodingTests {
    @Test("Base64 encodes the RFC 4648 §10 vectors with padding")
    func base64Vectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
                       "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test("Base64URL omits padding and uses - and _")
    func base64URLAlphabet() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xbf, 0xfe]
        #expect(Base64.encode(bytes) == "+/+//g==")
        #expect(Base64URL.encode(bytes) == "-_-__g")
        #expect(Base64URL.decode("-_-__g") == bytes)
        #expect(Base64URL.decode("-_-__g==") == bytes)
    }

    @Test("Base64 accepts both alphabets, with or without padding")
    func base64AcceptsBothAlphabets() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xbf, 0xfe]
        for text in ["+/+//g==", "+/+//g", "-_-__g", "-_-__g=="] {
            #expect(Base64.decode(text) == bytes)
        }
    }

    @Test("Base64URL rejects the standard alphabet, bad padding and impossible lengths")
    func base64URLRejections() {
        for text in ["+/+//g", "Zg=", "Zg===", "Z", "Zm9v=", "Zm 9v", "Zm9v\n", "Zh", "Zm9=v", "é"] {
            #expect(Base64URL.decode(text) == nil, "\(text) should be rejected")
        }
    }

    @Test("Base64 rejects whitespace, foreign characters and non-canonical trailing bits")
    func base64Rejections() {
        for text in ["Zm9v YmFy", "Zm9v*mFy", "Zh==", "Zm9=", "=", "Zg=="+"="] {
            #expect(Base64.decode(text) == nil, "\(text) should be rejected")
        }
    }

    @Test("random byte strings survive both base64 round trips")
    func roundTrips() {
        var generator = SplitMix64(seed: 42)
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
            #expect(Hex.decode(Hex.encode(bytes)) == bytes)
        }
    }

    @Test("Hex is lowercase, decodes either case and rejects odd or foreign input")
    func hex() {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.decode("00ABff") == [0x00, 0xab, 0xff])
        #expect(Hex.decode("") == [])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("0x12") == nil)
    }
}

@Suite("Constant-time comparison and secure randomness")
struct RandomnessTests {
    @Test("constantTimeEquals compares contents and lengths")
    func constantTimeComparison() {
        #expect(constantTimeEquals([], []))
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(!constantTimeEquals([], [0]))
    }

    @Test("random bytes have the requested length and differ between calls")
    func randomBytes() {
        #expect(SecureRandom.bytes(count: 0).isEmpty)
        #expect(SecureRandom.bytes(count: 33).count == 33)
        #expect(SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
    }

    @Test("tokens are unpadded base64url of the requested byte count")
    func tokens() {
        let token = SecureRandom.token(byteCount: 32)
        #expect(token.count == 43)
        #expect(!token.contains("="))
        #expect(Base64URL.decode(token)?.count == 32)
    }

    @Test("alphanumeric strings use only [A-Za-z0-9] and reach the whole alphabet")
    func alphanumeric() {
        let text = SecureRandom.alphanumeric(length: 4000)
        #expect(text.count == 4000)
        #expect(text.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) })
        // Missing one of 62 symbols in 4000 uniform draws has probability below 62·(61/62)^4000 ≈ 10^-26.
        #expect(Set(text).count == 62)
        #expect(SecureRandom.alphanumeric(length: 0).isEmpty)
    }
}

/// A small seeded generator so randomised tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
