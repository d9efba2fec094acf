import Testing
@testable import HTTP

@Suite("Server: requests, keep-alive and pipelining")
struct ServerBasicsTests {
    @Test("a GET is answered with Date and Content-Length, and the connection stays open")
    func keepAlive() async throws {
        try await withTestServer { _, port in
            let client = try RawClient(port: port)
            let first = try await client.roundTrip("GET /a?b=c HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(first.status == 200)
            #expect(first.bodyText == "GET /a b=c 0 ")
            #expect(first.header("Date")?.hasSuffix(" GMT") == true)
            #expect(first.header("Content-Length") == "13")
            #expect(first.header("Connection") == nil)
            let second = try await client.roundTrip("POST /p HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nxyz")
            #expect(second.bodyText == "POST /p - 3 xyz")
        }
    }

    @Test("Connection: close is answered with Connection: close and then the server closes")
    func connectionClose() async throws {
        try await withTestServer { _, port in
            let client = try RawClient(port: port)
            let response = try await client.roundTrip("GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(response.header("Connection") == "close")
            #expect(await client.isClosedByServer())
        }
    }

    @Test("HTTP/1.0 closes by default and stays open with Connection: keep-alive")
    func http10() async throws {
        try await withTestServer { _, port in
            let plain = try RawClient(port: port)
            let closing = try await plain.roundTrip("GET / HTTP/1.0\r\n\r\n")
            #expect(closing.header("Connection") == "close")
            #expect(await plain.isClosedByServer())
            let persistent = try RawClient(port: port)
            let kept = try await persistent.roundTrip("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(kept.header("Connection") == "keep-alive")
            #expect(try await persistent.roundTrip("GET /again HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").status == 200)
        }
    }

    @Test("pipelined requests in one write are answered in order")
    func pipelining() async throws {
        try await withTestServer { _, port in
            let client = try RawClient(port: port)
            try await client.send("POST /1 HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhi"
                + "POST /2 HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\n\r\n"
                + "GET /3 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            let bodies = [try await client.readResponse(), try await client.readResponse(),
                          try await client.readResponse()].map(\.bodyText)
            #expect(bodies == ["POST /1 - 2 hi", "POST /2 - 3 abc", "GET /3 - 0 "])
            #expect(await client.isClosedByServer())
        }
    }

    @Test("HEAD gets the length of the body but no body bytes")
    func head() async throws {
        try await withTestServer { _, port in
            let client = try RawClient(port: port)
            let response = try await client.roundTrip("HEAD /h HTTP/1.1\r\nHost: t\r\n\r\n", bodyless: true)
            #expect(response.header("Content-Length") == "12")
            let next = try await client.roundTrip("GET /n HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(next.bodyText == "GET /n - 0 ")
        }
    }

    @Test("every loop listens on the same port, also when port 0 was requested, and all of them serve")
    func sharedPort() async throws {
        try await withTestServer({ $0.eventLoopCount = 3 }) { server, port in
            #expect(server.listenerPorts == [port, port, port])
            for index in 0..<12 {
                let client = try RawClient(port: port)
                #expect(try await client.roundTrip("GET /\(index) HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
            }
        }
    }

    @Test("the handler sees the peer address")
    func remoteAddress() async throws {
        try await withTestServer(handler: { request in
            HTTPResponse(status: 200, body: Array(request.remoteAddress.utf8))
        }) { _, port in
            let client = try RawClient(port: port)
            #expect(try await client.roundTrip("GET / HTTP/1.1\r\nHost: t\r\n\r\n").bodyText == "127.0.0.1")
        }
    }

    @Test("a large response is written completely through backpressure")
    func largeResponse() async throws {
        let size = 8 << 20
        try await withTestServer(handler: { _ in
            HTTPResponse(status: 200, body: [UInt8](repeating: 7, count: size))
        }) { _, port in
            let client = try RawClient(port: port)
            let response = try await client.roundTrip("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(response.body.count == size)
            #expect(try await client.roundTrip("GET / HTTP/1.1\r\nHost: t\r\n\r\n").body.count == size)
        }
    }
}
