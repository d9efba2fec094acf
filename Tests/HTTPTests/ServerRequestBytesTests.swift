import Testing
@testable import HTTP

@Suite("Server: bytes held per connection")
struct ServerRequestBytesTests {
    @Test("the chunk-extension attack is answered 413 and never makes a connection hold more than the limits allow")
    func extensionAttack() async throws {
        try await withTestServer({ $0.requestDeadline = .seconds(5) }) { server, port in
            let limits = HTTPServerConfiguration().parserLimits
            let attack = ExtensionAttack.request(totalBytes: 4 * limits.maxRequestBytes,
                                                 extensionBytes: limits.maxChunkLineBytes - 8)
            let client = try RawClient(port: port)
            // The server answers before the whole attack is sent, then discards input until it closes.
            try? await client.send(attack)
            #expect(try await client.readResponse().status == 413)
            #expect(await client.isClosedByServer())
            // What the connection held: a read's worth of input and a few thousand decoded body bytes, never
            // the request (whose bytes on the wire the budget caps at maxRequestBytes in any case).
            #expect(server.largestConnectionBuffer <= Self.oneReadAndSlack)
            let fresh = try RawClient(port: port)
            #expect(try await fresh.roundTrip("GET / HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        }
    }

    @Test("a large chunked body is held once, decoded, not also as the raw bytes that carried it")
    func chunkedBodyHeldOnce() async throws {
        let bodySize = 768 * 1024
        try await withTestServer { server, port in
            var request = Array(ExtensionAttack.head.utf8)
            let piece = [UInt8](repeating: UInt8(ascii: "z"), count: 8192)
            for _ in 0..<(bodySize / piece.count) { request += Array("2000\r\n".utf8) + piece + Array("\r\n".utf8) }
            request += Array("0\r\n\r\n".utf8)
            let client = try RawClient(port: port)
            try await client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(response.bodyText.hasPrefix("POST / - \(bodySize) zzz"))
            #expect(server.largestConnectionBuffer <= bodySize + Self.oneReadAndSlack)
        }
    }

    /// One 64 KiB read, plus what may remain of the previous one (less than the release threshold), plus the
    /// decoded body of the attack (one byte per chunk).
    static let oneReadAndSlack = 64 * 1024 + 2 * 4096 + 8 * 1024
}
