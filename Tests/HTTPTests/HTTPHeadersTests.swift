import Testing
@testable import HTTP

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    @Test("lookup ignores case and returns the first value; order is kept")
    func lookup() {
        var headers = HTTPHeaders([("Set-Cookie", "a"), ("content-type", "text/plain")])
        headers.add("SET-COOKIE", "b")
        #expect(headers["set-cookie"] == "a")
        #expect(headers.values("Set-Cookie") == ["a", "b"])
        #expect(headers["missing"] == nil)
        #expect(headers.map(\.name) == ["Set-Cookie", "content-type", "SET-COOKIE"])
    }

    @Test("set replaces every field with that name")
    func set() {
        var headers = HTTPHeaders([("A", "1"), ("a", "2"), ("B", "3")])
        headers.set("A", "9")
        #expect(headers.values("a") == ["9"])
        #expect(headers.count == 2)
    }
}
