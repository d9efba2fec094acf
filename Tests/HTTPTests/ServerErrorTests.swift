import Testing
@testable import HTTP

@Suite("Server: refusing bad requests")
struct ServerErrorTests {
    @Test("bad requests get their status with Connection: close, then the connection is closed", arguments: [
        ("GET / HTTP/1.1\nHost: t\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: x\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("GET / HTTP/3.0\r\nHost: t\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\nHost: t\r\nX: a\r\n b\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 2000\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n7d0\r\n", 413),
        ("GET / HTTP/1.1\r\nHost: t\r\n" + String(repeating: "X-Long: 0123456789012345678901234567890123456789\r\n", count: 30), 431),
        ("GET / HTTP/1.1\r\nHost: t\r\n" + String(repeating: "A: 1\r\n", count: 12) + "\r\n", 431),
    ])
    func refused(request: String, status: Int) async throws {
        try await withTestServer({
            $0.maxBodyBytes = 1000
            $0.maxHeaderBytes = 1024
            $0.maxHeaderCount = 10
        }) { _, port in
            let client = try RawClient(port: port)
            let response = try await client.roundTrip(request)
            #expect(response.status == status)
            #expect(response.header("Connection") == "close")
            #expect(await client.isClosedByServer())
        }
    }

    @Test("a refused request gets the application's refusal rendering (its body and headers), framing still the server's")
    func refusalRendering() async throws {
        try await withTestServer({
            $0.maxBodyBytes = 10
            $0.refusalResponse = { status, reason in
                var headers = HTTPHeaders()
                headers.add("Content-Type", "application/json")
                headers.add("Content-Length", "999")
                return HTTPResponse(status: status, headers: headers, body: Array("{\"why\":\"\(reason)\"}".utf8))
            }
        }) { _, port in
            let client = try RawClient(port: port)
            let response = try await client.roundTrip("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 20\r\n\r\n")
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.bodyText == #"{"why":"request payload size exceeds the limit: 10 bytes"}"#)
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.header("Connection") == "close")
            #expect(await client.isClosedByServer())
        }
    }

    @Test("the default refusal is plain text")
    func plainRefusal() async throws {
        try await withTestServer { _, port in
            let response = try await RawClient(port: port).roundTrip("GET / HTTP/1.1\nHost: t\r\n\r\n")
            #expect(response.status == 400 && response.header("Content-Type") == "text/plain; charset=utf-8")
        }
    }

    @Test("Expect: 100-continue gets 100 Continue before the body is sent, then the final response")
    func continueFlow() async throws {
        // A generous deadline: on a loaded machine the gap between "100 Continue" and the body must not turn
        // into a 408 (the deadline has its own tests).
        try await withTestServer({ $0.requestDeadline = .seconds(120) }) { _, port in
            let client = try RawClient(port: port)
            try await client.send("POST /c HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            #expect(try await client.readResponse().status == 100)
            let final = try await client.roundTrip("body")
            #expect(final.bodyText == "POST /c - 4 body")
        }
    }

    @Test("Expect: 100-continue with a too-large length gets 413 and no 100")
    func continueTooLarge() async throws {
        try await withTestServer({ $0.maxBodyBytes = 10 }) { _, port in
            let client = try RawClient(port: port)
            let response = try await client.roundTrip(
                "POST / HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n")
            #expect(response.status == 413)
        }
    }

    @Test("beyond maxConnections a connection is accepted and closed at once; others keep working")
    func connectionCap() async throws {
        try await withTestServer({ $0.maxConnections = 2 }) { server, port in
            // Requests in progress, not idle keep-alive connections (which are closed near the cap).
            let first = try RawClient(port: port)
            let second = try RawClient(port: port)
            try await first.send("GET /first HTTP/1.1\r\n")
            try await second.send("GET /second HTTP/1.1\r\n")
            try await waitUntil { server.connectionCount == 2 }
            let third = try RawClient(port: port)
            try? await third.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(await third.isClosedByServer())
            #expect(try await first.roundTrip("Host: t\r\n\r\n").status == 200)
            #expect(try await second.roundTrip("Host: t\r\n\r\n").status == 200)
        }
    }
}
