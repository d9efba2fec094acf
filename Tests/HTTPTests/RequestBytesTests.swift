import Testing
@testable import HTTP

/// The chunk-extension attack from issue 8: chunk lines of one data byte and long extensions, so megabytes
/// arrive on the wire while the decoded body stays tiny.
enum ExtensionAttack {
    static let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"

    /// One chunk: size 1, an extension of `extensionBytes` bytes, one data byte.
    static func chunk(extensionBytes: Int) -> [UInt8] {
        Array(("1;" + String(repeating: "e", count: extensionBytes) + "\r\n \r\n").utf8)
    }

    /// The head and as many chunks as fit in about `totalBytes`.
    static func request(totalBytes: Int, extensionBytes: Int) -> [UInt8] {
        let one = chunk(extensionBytes: extensionBytes)
        var bytes = Array(head.utf8)
        bytes.reserveCapacity(totalBytes + one.count)
        while bytes.count < totalBytes { bytes += one }
        return bytes
    }
}

@Suite("Parser: every byte of a request counts")
struct RequestBytesTests {
    @Test("chunk framing with long extensions is 413 once the request's bytes pass maxRequestBytes")
    func extensionFlood() {
        let limits = ParserLimits()
        let attack = ExtensionAttack.request(totalBytes: 2 * limits.maxRequestBytes,
                                             extensionBytes: limits.maxChunkLineBytes - 8)
        guard case .failure(let status, _) = parseOnce(attack, limits: limits) else {
            Issue.record("a request of \(attack.count) bytes decoding to a few thousand body bytes was not refused")
            return
        }
        #expect(status == 413)
    }

    @Test("the parser stops examining at maxRequestBytes, whatever follows")
    func stopsAtTheBudget() {
        let limits = ParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 4096)
        let attack = ExtensionAttack.request(totalBytes: 64 * 1024, extensionBytes: 100)
        var state = ParserState()
        guard case .failure(413, _) = HTTPRequestParser.parse(attack[...], state: &state, limits: limits) else {
            Issue.record("expected 413")
            return
        }
        #expect(state.chunks.requestBytes <= limits.maxRequestBytes)
    }

    @Test("a chunk whose announced size would pass maxRequestBytes is 413 before its data arrives")
    func announcedSizeOverBudget() {
        let limits = ParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 4096, maxRequestBytes: 2048)
        #expect(failureStatus(ExtensionAttack.head + "800\r\n", limits: limits) == 413)
        #expect(failureStatus(ExtensionAttack.head + "100\r\n", limits: limits) == nil)
    }

    @Test("a chunk-size line longer than maxChunkLineBytes (extensions included) is 400")
    func longExtensionLine() {
        let limits = ParserLimits()
        let line = "1;" + String(repeating: "e", count: limits.maxChunkLineBytes) + "\r\n"
        #expect(failureStatus(ExtensionAttack.head + line, limits: limits) == 400)
        // The issue's attack used 4 KiB extension lines, which the default no longer reads to the end.
        let attackLine = "1;" + String(repeating: "e", count: 4090) + "\r\n"
        #expect(failureStatus(ExtensionAttack.head + attackLine) == 400)
        let fits = "1;" + String(repeating: "e", count: limits.maxChunkLineBytes - 8) + "\r\nx\r\n0\r\n\r\n"
        #expect(parsedRequest(ExtensionAttack.head + fits, limits: limits)?.body == Array("x".utf8))
    }

    @Test("a body of maxBodyBytes in 64-byte chunks with trailers is within the default budget")
    func ordinaryChunksFit() {
        let limits = ParserLimits()
        var text = ExtensionAttack.head
        let piece = String(repeating: "b", count: 64)
        for _ in 0..<(limits.maxBodyBytes / 64) { text += "40\r\n" + piece + "\r\n" }
        text += "0\r\nX-Checksum: abc\r\n\r\n"
        #expect(parsedRequest(text, limits: limits)?.body.count == limits.maxBodyBytes)
    }

    @Test("dropping what the parser releases gives the same request, holding a fraction of the bytes")
    func releasing() {
        let limits = ParserLimits()
        var text = ExtensionAttack.head
        for index in 0..<2000 { text += "10;n=\(index)\r\n" + String(repeating: "d", count: 16) + "\r\n" }
        text += "0\r\n\r\n"
        let bytes = Array(text.utf8)
        var buffer: [UInt8] = []
        var state = ParserState()
        var largest = 0
        var result = ParseResult.needMore
        for start in stride(from: 0, to: bytes.count, by: 1000) {
            buffer += bytes[start..<min(bytes.count, start + 1000)]
            result = HTTPRequestParser.parse(buffer[...], state: &state, limits: limits)
            largest = max(largest, buffer.count)
            let releasable = state.releasableByteCount
            buffer.removeFirst(releasable)
            state.releaseBytes(releasable)
        }
        guard case .request(let request, let consumed) = result else {
            Issue.record("expected a request, got \(result)")
            return
        }
        #expect(request.body == parsedRequest(text, limits: limits)?.body)
        #expect(consumed == buffer.count)
        #expect(largest < 2000)
    }
}
