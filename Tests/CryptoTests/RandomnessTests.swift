import Crypto
import Testing
import WireFormats

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
