import Crypto
import Glibc
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

    @Test("small requests served from the per-thread reserve never repeat bytes")
    func reserveHandsEachByteOutOnce() {
        // 64 draws of 24 bytes cross several refills of the 512-byte reserve; a repeated 24-byte value would mean a
        // byte range was served twice (the chance of a genuine collision is about 2^-180).
        var seen = Set<[UInt8]>()
        for _ in 0..<64 { seen.insert(SecureRandom.bytes(count: 24)) }
        #expect(seen.count == 64)
        // Above the reserve's largest request, and one that empties it exactly.
        #expect(SecureRandom.bytes(count: 129).count == 129)
        #expect(SecureRandom.bytes(count: 512).count == 512)
    }

    @Test("a forked child does not repeat the bytes its parent draws next")
    func forkedChildDrawsFreshBytes() throws {
        _ = SecureRandom.bytes(count: 16)  // the reserve now holds unused bytes that the child inherits
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            alarm(10)  // never hang a test run, whatever state other threads left behind at the fork
            let drawn = SecureRandom.bytes(count: 16)
            _ = write(ends[1], drawn, drawn.count)
            _exit(0)
        }
        close(ends[1])
        let parentBytes = SecureRandom.bytes(count: 16)
        var childBytes = [UInt8](repeating: 0, count: 16)
        let received = read(ends[0], &childBytes, childBytes.count)
        close(ends[0])
        var status: Int32 = 0
        waitpid(child, &status, 0)
        #expect(received == 16)
        #expect(childBytes != parentBytes)
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
