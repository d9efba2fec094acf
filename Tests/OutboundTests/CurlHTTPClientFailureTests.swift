import Glibc
import Outbound
import Testing

@Suite("CurlHTTPClient failures")
struct CurlHTTPClientFailureTests {
    @Test("a server that never answers gives timedOut")
    func timeout() async throws {
        let server = try LoopbackServer { _ in .silence }
        defer { server.stop() }

        await #expect(throws: OutboundError.timedOut) {
            try await CurlHTTPClient().send(OutboundRequest(url: server.url("/slow"), timeout: .milliseconds(300)))
        }
    }

    @Test("a refused connection gives connectionFailed")
    func connectionRefused() async throws {
        let (socket, port) = try bindLoopback(listening: false)
        defer { close(socket) }

        await #expect {
            try await CurlHTTPClient().send(OutboundRequest(url: "http://127.0.0.1:\(port)/"))
        } throws: { error in
            guard case OutboundError.connectionFailed(let detail) = error else { return false }
            return !detail.isEmpty
        }
    }

    @Test("an unreadable CA bundle makes https fail as connectionFailed, so the pinned bundle is really used")
    func caBundleIsUsed() async throws {
        let server = try LoopbackServer { _ in .silence }
        defer { server.stop() }
        let client = CurlHTTPClient(caBundlePath: "/nonexistent/gatehouse-ca.pem")

        await #expect {
            try await client.send(OutboundRequest(url: "https://127.0.0.1:\(server.port)/", timeout: .seconds(5)))
        } throws: { error in
            guard case OutboundError.connectionFailed(let detail) = error else { return false }
            return !detail.isEmpty
        }
    }

    @Test("a response whose declared length exceeds the cap gives tooLarge")
    func declaredTooLarge() async throws {
        let server = try LoopbackServer { _ in .respond(status: 200, body: Array(repeating: 0x78, count: 5000)) }
        defer { server.stop() }

        await #expect(throws: OutboundError.tooLarge) {
            try await CurlHTTPClient(maxResponseBytes: 1024).send(OutboundRequest(url: server.url("/big")))
        }
    }

    @Test("a body streamed past the cap without a length gives tooLarge")
    func streamedTooLarge() async throws {
        let server = try LoopbackServer { _ in .bodyUntilClose(body: Array(repeating: 0x78, count: 300_000)) }
        defer { server.stop() }

        await #expect(throws: OutboundError.tooLarge) {
            try await CurlHTTPClient(maxResponseBytes: 64 * 1024).send(OutboundRequest(url: server.url("/stream")))
        }
    }

    @Test("a response just under the cap is accepted")
    func underTheCap() async throws {
        let server = try LoopbackServer { _ in .respond(status: 200, body: Array(repeating: 0x78, count: 900)) }
        defer { server.stop() }

        let response = try await CurlHTTPClient(maxResponseBytes: 1024).send(OutboundRequest(url: server.url("/ok")))

        #expect(response.body.count == 900)
    }

    @Test("non-http URLs are refused before any transfer",
          arguments: ["file:///etc/passwd", "ftp://127.0.0.1:PORT/", "gopher://127.0.0.1:PORT/",
                      "dict://127.0.0.1:PORT/", "127.0.0.1:PORT/no-scheme", "http://",
                      "http://127.0.0.1:PORT/has space", "not a url", ""])
    func nonHTTPRefused(template: String) async throws {
        let server = try LoopbackServer { _ in .respond(status: 200) }
        defer { server.stop() }
        let url = template.replacingOccurrences(of: "PORT", with: "\(server.port)")

        await #expect(throws: OutboundError.invalidURL) {
            try await CurlHTTPClient().send(OutboundRequest(url: url))
        }
        #expect(server.connectionCount == 0)
    }

    @Test("headers that would inject extra lines are refused before any transfer",
          arguments: [("X-A", "1\r\nX-Injected: 2"), ("X-A\r\nX-B", "1"), ("", "1"), ("X A", "1")])
    func headerInjectionRefused(name: String, value: String) async throws {
        let server = try LoopbackServer { _ in .respond(status: 200) }
        defer { server.stop() }

        await #expect {
            try await CurlHTTPClient().send(OutboundRequest(url: server.url("/"), headers: [(name, value)]))
        } throws: { error in
            if case OutboundError.invalidRequest = error { return true }
            return false
        }
        #expect(server.connectionCount == 0)
    }

    @Test("cancelling the calling task aborts a transfer that is waiting on the server")
    func cancellation() async throws {
        let server = try LoopbackServer { _ in .silence }
        defer { server.stop() }
        let client = CurlHTTPClient()

        let task = Task {
            try await client.send(OutboundRequest(url: server.url("/hang"), timeout: .seconds(60)))
        }
        while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()

        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
