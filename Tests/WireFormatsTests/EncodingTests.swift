import TestSupport
import Testing
@testable import WireFormats

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

    @Test("Base64URL.append writes after what the buffer holds, the same text encode gives, for every length")
    func base64URLAppend() {
        var generator = SplitMix64(seed: 7)
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            var buffer = Array("head.".utf8)
            Base64URL.append(bytes, to: &buffer)
            #expect(buffer == Array(("head." + Base64URL.encode(bytes)).utf8))
            #expect(Base64URL.decode(buffer[5...]) == bytes)
        }
        var vectors: [UInt8] = []
        Base64URL.append(Array("fooba".utf8), to: &vectors)
        #expect(String(decoding: vectors, as: UTF8.self) == "Zm9vYmE")
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
