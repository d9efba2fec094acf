import Testing
@testable import Crypto
import WireFormats

@Suite("SHA-256 and HMAC-SHA256 known answers")
struct DigestTests {
    @Test("SHA-256 matches the FIPS 180-2 examples")
    func sha256KnownAnswers() {
        #expect(Hex.encode(SHA256.hash("abc"))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(SHA256.hash(""))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("hashing text hashes its UTF-8 bytes")
    func textIsHashedAsUTF8() {
        #expect(SHA256.hash("héllo") == SHA256.hash(Array("héllo".utf8)))
        #expect(SHA256.hash([]).count == 32)
    }

    struct HMACCase: Sendable, CustomTestStringConvertible {
        let number: Int
        let key: [UInt8]
        let message: [UInt8]
        let tag: String
        var testDescription: String { "RFC 4231 test case \(number)" }
    }

    static let rfc4231: [HMACCase] = [
        HMACCase(number: 1, key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8),
                 tag: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        HMACCase(number: 2, key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8),
                 tag: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        HMACCase(number: 3, key: [UInt8](repeating: 0xaa, count: 20), message: [UInt8](repeating: 0xdd, count: 50),
                 tag: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        HMACCase(number: 4, key: Array(1...25), message: [UInt8](repeating: 0xcd, count: 50),
                 tag: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        HMACCase(number: 6, key: [UInt8](repeating: 0xaa, count: 131),
                 message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                 tag: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        HMACCase(number: 7, key: [UInt8](repeating: 0xaa, count: 131),
                 message: Array(("This is a test using a larger than block-size key and a larger than block-size data. "
                     + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
                 tag: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test("HMAC-SHA256 matches RFC 4231", arguments: rfc4231)
    func hmacKnownAnswers(_ testCase: HMACCase) {
        #expect(Hex.encode(HMACSHA256.authenticate(key: testCase.key, message: testCase.message)) == testCase.tag)
    }

    @Test("HMAC accepts an empty key and an empty message")
    func hmacEmptyInputs() {
        let tag = HMACSHA256.authenticate(key: [], message: [])
        #expect(Hex.encode(tag) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
