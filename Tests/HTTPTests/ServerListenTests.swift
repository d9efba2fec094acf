import Testing
@testable import HTTP

@Suite("Server: one server per address")
struct ServerListenTests {
    @Test("a second server on a port in use refuses to start and names the address")
    func portInUse() async throws {
        try await withTestServer { _, port in
            var configuration = HTTPServerConfiguration()
            configuration.port = port
            configuration.eventLoopCount = 2
            let second = HTTPServer(configuration: configuration, handler: echoHandler)
            #expect(Self.startFailure(second) == .addressInUse(host: "127.0.0.1", port: port))
            #expect("\(HTTPServerError.addressInUse(host: "127.0.0.1", port: port))".contains("127.0.0.1:\(port)"))
            #expect(second.connectionCount == 0)
            let fresh = try RawClient(port: port)
            #expect(try await fresh.roundTrip("GET / HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        }
    }

    static func startFailure(_ server: HTTPServer) -> HTTPServerError? {
        do {
            _ = try server.start()
            return nil
        } catch {
            return error
        }
    }

    @Test("port 0 gives every server a port of its own")
    func ephemeralPorts() async throws {
        try await withTestServer { _, first in
            try await withTestServer { _, second in
                #expect(first != second)
            }
        }
    }

    @Test("a port left in TIME_WAIT by a stopped server is free for the next one")
    func restartOnSamePort() async throws {
        var port = 0
        try await withTestServer { _, bound in
            port = bound
            let client = try RawClient(port: bound)
            #expect(try await client.roundTrip("GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").status == 200)
            #expect(await client.isClosedByServer())
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = port
        configuration.eventLoopCount = 1
        let next = HTTPServer(configuration: configuration, handler: echoHandler)
        #expect(try next.start() == port)
        await next.shutdown(gracePeriod: .milliseconds(200))
    }
}
