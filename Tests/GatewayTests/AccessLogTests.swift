import Testing
@testable import Gateway
import WireFormats

/// The access log line of a request: its path, and never more than the first 200 characters of it.
@Suite("Access log")
struct AccessLogTests {
    private func loggedPaths(_ gw: TestGateway) -> [String] {
        gw.logs.contents.compactMap { line in
            guard let entry = try? JSONParser.parse(Array(line.utf8)), entry["msg"] == "request" else { return nil }
            return entry["http.path"]?.stringValue
        }
    }

    @Test("a request's path is logged as sent; a longer one than 200 characters only up to there")
    func pathIsLoggedAndCapped() async throws {
        let gw = try await TestGateway.make()
        _ = await gw.send("GET", "/healthz")
        let long = "/" + String(repeating: "p", count: 299)
        _ = await gw.send("GET", long + "?key=secret-key")
        _ = await gw.send("GET", "/" + String(repeating: "é", count: 150))
        let paths = loggedPaths(gw)
        #expect(paths.count == 3)
        #expect(paths.first == "/healthz")
        #expect(paths.dropFirst().first == String(long.prefix(200)))
        // 151 characters in 301 bytes: under the character cap, so logged whole.
        #expect(paths.last == "/" + String(repeating: "é", count: 150))
        #expect(!gw.logs.contents.joined().contains("secret-key"))
    }
}
