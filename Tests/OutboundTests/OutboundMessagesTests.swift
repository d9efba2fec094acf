import Outbound
import Testing

/// A fake of the kind providers' tests inject instead of the network.
private struct CannedFetcher: HTTPFetching {
    let response: OutboundResponse
    func send(_ request: OutboundRequest) async throws -> OutboundResponse { response }
}

@Suite("Outbound messages")
struct OutboundMessagesTests {
    @Test("a request defaults to a body-less GET with a ten-second timeout")
    func requestDefaults() {
        let request = OutboundRequest(url: "https://appleid.apple.com/auth/keys")
        #expect(request.method == "GET")
        #expect(request.headers.isEmpty && request.body.isEmpty)
        #expect(request.timeout == .seconds(10))
    }

    @Test("header lookup ignores case and returns the first of duplicates")
    func headerLookup() {
        let response = OutboundResponse(status: 200, headers: [("X-Dup", "one"), ("x-dup", "two")])
        #expect(response.header("X-DUP") == "one")
        #expect(response.header("other") == nil)
    }

    @Test("an HTTPFetching fake can stand in for the network")
    func fakeFetcher() async throws {
        let fetcher: any HTTPFetching = CannedFetcher(response: OutboundResponse(status: 418, body: [1]))
        let response = try await fetcher.send(OutboundRequest(url: "https://graph.facebook.com/me"))
        #expect(response.status == 418 && response.body == [1])
    }

    @Test("globalInit can be called more than once and clients still work afterwards")
    func globalInitIsIdempotent() async throws {
        Curl.globalInit()
        Curl.globalInit()
        let server = try LoopbackServer { _ in .respond(status: 200) }
        defer { server.stop() }

        let response = try await CurlHTTPClient().send(OutboundRequest(url: server.url("/")))

        #expect(response.status == 200)
    }
}
