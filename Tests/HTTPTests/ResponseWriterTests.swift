import Testing
@testable import HTTP

@Suite("Response serialization")
struct ResponseWriterTests {
    private func text(_ response: HTTPResponse, head: Bool = false, keepAlive: Bool = true) -> String {
        String(decoding: ResponseWriter.serialize(response, isHeadRequest: head, keepAlive: keepAlive,
                                                  http10KeepAlive: false, date: "D"), as: UTF8.self)
    }

    @Test("status line, Date and Content-Length are always written; handler framing fields are replaced")
    func framing() {
        let response = HTTPResponse(status: 201, headers: HTTPHeaders([("Content-Length", "99"), ("X", "y")]),
                                    body: Array("abc".utf8))
        #expect(text(response) == "HTTP/1.1 201 Created\r\nX: y\r\nDate: D\r\nContent-Length: 3\r\n\r\nabc")
    }

    @Test("HEAD keeps the length but sends no body; 204 and 304 send neither")
    func bodyless() {
        let response = HTTPResponse(status: 200, body: Array("abc".utf8))
        #expect(text(response, head: true).hasSuffix("Content-Length: 3\r\n\r\n"))
        #expect(text(HTTPResponse(status: 204, body: [1])) == "HTTP/1.1 204 No Content\r\nDate: D\r\n\r\n")
        #expect(text(HTTPResponse(status: 304, body: [1])) == "HTTP/1.1 304 Not Modified\r\nDate: D\r\n\r\n")
    }

    @Test("closing adds Connection: close; unsafe handler headers are dropped")
    func closeAndSanitize() {
        let response = HTTPResponse(status: 200, headers: HTTPHeaders([("Bad", "a\r\nInjected: 1"), ("Ok", "1")]))
        let output = text(response, keepAlive: false)
        #expect(output.contains("Connection: close\r\n"))
        #expect(!output.contains("Injected"))
        #expect(output.contains("Ok: 1\r\n"))
    }

    @Test("the Date header is an IMF-fixdate")
    func imfFixdate() {
        #expect(HTTPDateCache.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        var cache = HTTPDateCache()
        #expect(cache.current().hasSuffix(" GMT"))
    }
}
