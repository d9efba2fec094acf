@testable import Crypto
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

    @Test("a forked child starts with an empty reserve, so it never repeats the bytes its parent draws next")
    func forkedChildDiscardsTheReserve() throws {
        _ = SecureRandom.bytes(count: 16)  // the reserve now holds unused bytes that the child inherits
        let parentReserve = SecureRandom.reservedByteCount
        try #require(parentReserve > 0)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            // Only reads the reserve: no lock another thread may have held at the fork is ever taken here.
            var count = Int64(SecureRandom.reservedByteCount)
            _ = write(ends[1], &count, MemoryLayout<Int64>.size)
            _exit(0)
        }
        close(ends[1])
        var childReserve: Int64 = -1
        let received = read(ends[0], &childReserve, MemoryLayout<Int64>.size)
        close(ends[0])
        var status: Int32 = 0
        waitpid(child, &status, 0)
        #expect(received == MemoryLayout<Int64>.size)
        #expect(childReserve == 0)
        #expect(SecureRandom.reservedByteCount == parentReserve)
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
