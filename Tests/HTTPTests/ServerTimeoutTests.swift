import Testing
@testable import HTTP

@Suite("Server: request deadline and idle timeout")
struct ServerTimeoutTests {
    @Test("a client trickling its head gets 408 and is closed, while another client is served")
    func slowloris() async throws {
        try await withTestServer({ $0.requestDeadline = .milliseconds(300) }) { _, port in
            let trickler = try RawClient(port: port)
            try await trickler.send("GET / HTTP/1.1\r\n")
            let normal = try RawClient(port: port)
            #expect(try await normal.roundTrip("GET /ok HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
            for index in 0..<10 {
                try? await trickler.send("X-\(index): 1\r\n")
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(try await trickler.readResponse().status == 408)
            #expect(await trickler.isClosedByServer())
            #expect(try await normal.roundTrip("GET /still HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        }
    }

    @Test("a slow POST body is cut off at the deadline")
    func slowPost() async throws {
        try await withTestServer({ $0.requestDeadline = .milliseconds(300) }) { _, port in
            let client = try RawClient(port: port)
            try await client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n")
            for _ in 0..<10 {
                try? await client.send("x")
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(try await client.readResponse().status == 408)
            #expect(await client.isClosedByServer())
        }
    }

    @Test("an idle keep-alive connection is closed after the idle timeout")
    func idle() async throws {
        try await withTestServer({ $0.idleTimeout = .milliseconds(300) }) { server, port in
            let client = try RawClient(port: port)
            #expect(try await client.roundTrip("GET / HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
            #expect(await client.isClosedByServer())
            for _ in 0..<200 where server.connectionCount > 0 {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(server.connectionCount == 0)
        }
    }
}
