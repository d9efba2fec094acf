import Dispatch
import Synchronization
import Testing
@testable import Crypto
import WireFormats

@Suite("AES-256-GCM")
struct AESGCMTests {
    // McGrew & Viega, "The Galois/Counter Mode of Operation", test case 16 (256-bit key, 60-byte plaintext, AAD).
    static let key = Hex.decode("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")!
    static let nonce = Hex.decode("cafebabefacedbaddecaf888")!
    static let plaintext = Hex.decode("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")!
    static let associatedData = Hex.decode("feedfacedeadbeeffeedfacedeadbeefabaddad2")!
    static let ciphertext = Hex.decode("522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
        + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662")!
    static let tag = Hex.decode("76fc6ece0f4e1768cddf8853bb2d551b")!

    @Test("sealing reproduces GCM test case 16 and opening recovers its plaintext")
    func knownAnswer() throws {
        let key = try SymmetricKey(bytes: Self.key)
        let box = try AESGCM.seal(Self.plaintext, key: key, nonce: Self.nonce, associatedData: Self.associatedData)
        #expect(box == Self.nonce + Self.ciphertext + Self.tag)
        #expect(try AESGCM.open(box, key: key, associatedData: Self.associatedData) == Self.plaintext)
    }

    @Test("seal and open round-trip, including empty plaintext and empty associated data")
    func roundTrip() throws {
        let key = SymmetricKey.generate()
        for message in [[], Array("hello".utf8), [UInt8](repeating: 7, count: 1000)] {
            let box = try AESGCM.seal(message, key: key, associatedData: Array("user-42".utf8))
            #expect(box.count == 12 + message.count + 16)
            #expect(try AESGCM.open(box, key: key, associatedData: Array("user-42".utf8)) == message)
        }
        #expect(try AESGCM.open(AESGCM.seal([1, 2, 3], key: key), key: key) == [1, 2, 3])
    }

    @Test("a key's reused contexts start every message afresh: after other messages, a failed open, and on many threads")
    func reusedContexts() throws {
        let key = try SymmetricKey(bytes: Self.key)
        let expected = Self.nonce + Self.ciphertext + Self.tag
        @Sendable func knownAnswerHolds() throws -> Bool {
            try AESGCM.seal(Self.plaintext, key: key, nonce: Self.nonce, associatedData: Self.associatedData) == expected
                && AESGCM.open(expected, key: key, associatedData: Self.associatedData) == Self.plaintext
        }
        #expect(try knownAnswerHolds())
        // Longer and shorter messages and associated data in between leave nothing behind.
        for length in [0, 1, 17, 1000] {
            let box = try AESGCM.seal([UInt8](repeating: 9, count: length), key: key,
                                      associatedData: [UInt8](repeating: 3, count: length))
            #expect(try AESGCM.open(box, key: key, associatedData: [UInt8](repeating: 3, count: length)).count == length)
        }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(expected, key: key) }
        #expect(try knownAnswerHolds())
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 where (try? knownAnswerHolds()) != true {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test("sealing twice uses fresh nonces")
    func freshNonces() throws {
        let key = SymmetricKey.generate()
        #expect(try AESGCM.seal([1], key: key) != AESGCM.seal([1], key: key))
    }

    @Test("any tampering with nonce, ciphertext, tag or associated data fails authentication")
    func tamperingIsDetected() throws {
        let key = try SymmetricKey(bytes: Self.key)
        let box = Self.nonce + Self.ciphertext + Self.tag
        for index in [0, 11, 12, 40, box.count - 16, box.count - 1] {
            var altered = box
            altered[index] ^= 0x01
            #expect(throws: CryptoError.authenticationFailed) {
                try AESGCM.open(altered, key: key, associatedData: Self.associatedData)
            }
        }
        var otherData = Self.associatedData
        otherData[0] ^= 0x80
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(box, key: key, associatedData: otherData) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(box, key: key) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(Array(box.dropLast()), key: key) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(Array(box.prefix(27)), key: key) }
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(box, key: SymmetricKey.generate(), associatedData: Self.associatedData)
        }
    }

    @Test("keys must be exactly 32 bytes")
    func keyLength() {
        #expect(throws: CryptoError.invalidKey("AES-256 keys are 32 bytes")) { try SymmetricKey(bytes: [1, 2, 3]) }
        #expect(SymmetricKey.generate().bytes.count == 32)
    }
}
