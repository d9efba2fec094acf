import Outbound
import Testing
import WireFormats

@Suite("CurlHTTPClient exchanges with a loopback server")
struct CurlHTTPClientExchangeTests {
    @Test("a GET carries the caller's headers and returns the body")
    func getWithHeaders() async throws {
        let server = try LoopbackServer { _ in .respond(status: 200, body: Array("hello".utf8)) }
        defer { server.stop() }
        let client = CurlHTTPClient()

        let response = try await client.send(OutboundRequest(
            url: server.url("/keys?kid=1"), headers: [("Accept", "application/json"), ("X-Trace", "abc 123")]))

        #expect(response.status == 200)
        #expect(response.body == Array("hello".utf8))
        let seen = try #require(server.requests.first)
        #expect(seen.method == "GET")
        #expect(seen.target == "/keys?kid=1")
        #expect(seen.header("accept") == "application/json")
        #expect(seen.header("x-trace") == "abc 123")
        #expect(seen.header("expect") == nil)
    }

    @Test("a POST form body arrives byte-exact, including bytes libcurl might treat specially")
    func postFormBody() async throws {
        let server = try LoopbackServer { _ in .respond(status: 200) }
        defer { server.stop() }
        let client = CurlHTTPClient()
        let form = FormURLEncoding.encode([("grant_type", "authorization_code"), ("code", "a b+c&d=é")])
        let bodies: [[UInt8]] = [Array(form.utf8), [0, 1, 2, 0, 255], Array(repeating: 0x61, count: 200_000), []]

        for body in bodies {
            _ = try await client.send(OutboundRequest(
                method: "POST", url: server.url("/token"),
                headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body))
        }

        #expect(server.requests.map(\.method) == ["POST", "POST", "POST", "POST"])
        #expect(server.requests.map(\.body) == bodies)
        #expect(server.requests.first?.header("content-type") == "application/x-www-form-urlencoded")
    }

    @Test("methods other than GET and POST are sent as given, with or without a body")
    func customMethods() async throws {
        let server = try LoopbackServer { _ in .respond(status: 204) }
        defer { server.stop() }
        let client = CurlHTTPClient()

        let deleted = try await client.send(OutboundRequest(method: "DELETE", url: server.url("/me")))
        let patched = try await client.send(OutboundRequest(method: "PATCH", url: server.url("/me"), body: [7, 8]))

        #expect(deleted.status == 204 && patched.status == 204)
        #expect(server.requests.map(\.method) == ["DELETE", "PATCH"])
        #expect(server.requests.map(\.body) == [[], [7, 8]])
    }

    @Test("response headers are parsed in order, duplicates kept, looked up case-insensitively")
    func responseHeaders() async throws {
        let server = try LoopbackServer { _ in
            .respond(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "max-age=3600"),
                                            ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"), ("X-Spaced", "  padded  ")])
        }
        defer { server.stop() }

        let response = try await CurlHTTPClient().send(OutboundRequest(url: server.url("/jwks")))

        #expect(response.header("content-type") == "application/json")
        #expect(response.header("CACHE-CONTROL") == "max-age=3600")
        #expect(response.header("x-spaced") == "padded")
        #expect(response.header("missing") == nil)
        #expect(response.headers.filter { $0.0 == "Set-Cookie" }.map(\.1) == ["a=1", "b=2"])
        #expect(!response.headers.contains { $0.0.hasPrefix("HTTP/") })
    }

    @Test("error statuses come back as responses, not as thrown errors", arguments: [200, 404, 500])
    func statusCodes(status: Int) async throws {
        let server = try LoopbackServer { _ in .respond(status: status, body: Array("{\"error\":1}".utf8)) }
        defer { server.stop() }

        let response = try await CurlHTTPClient().send(OutboundRequest(url: server.url("/status")))

        #expect(response.status == status)
        #expect(response.body == Array("{\"error\":1}".utf8))
    }

    @Test("redirects are returned to the caller, not followed")
    func redirectsNotFollowed() async throws {
        let server = try LoopbackServer { _ in .respond(status: 302, headers: [("Location", "file:///etc/passwd")]) }
        defer { server.stop() }

        let response = try await CurlHTTPClient().send(OutboundRequest(url: server.url("/moved")))

        #expect(response.status == 302)
        #expect(response.header("location") == "file:///etc/passwd")
        #expect(server.requests.count == 1)
    }

    @Test("sequential requests reuse one connection")
    func connectionReuse() async throws {
        let server = try LoopbackServer { _ in .respond(status: 200) }
        defer { server.stop() }
        let client = CurlHTTPClient(maxConcurrent: 1)

        for _ in 0..<3 { _ = try await client.send(OutboundRequest(url: server.url("/again"))) }

        #expect(server.requests.count == 3)
        #expect(server.connectionCount == 1)
    }

    @Test("20 concurrent requests all succeed and each gets its own answer", arguments: [3, 8])
    func concurrentRequests(maxConcurrent: Int) async throws {
        let server = try LoopbackServer { request in .respond(status: 200, body: Array(request.target.utf8)) }
        defer { server.stop() }
        let client = CurlHTTPClient(maxConcurrent: maxConcurrent)

        let answers = try await withThrowingTaskGroup(of: (Int, OutboundResponse).self) { group in
            for index in 0..<20 {
                group.addTask { (index, try await client.send(OutboundRequest(url: server.url("/n/\(index)")))) }
            }
            var answers: [Int: OutboundResponse] = [:]
            for try await (index, response) in group { answers[index] = response }
            return answers
        }

        #expect(answers.count == 20)
        for (index, response) in answers {
            #expect(response.status == 200)
            #expect(response.body == Array("/n/\(index)".utf8))
        }
    }
}
