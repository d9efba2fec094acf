import Testing
@testable import HTTP

@Suite("Request line and header parsing")
struct RequestLineParserTests {
    @Test("a simple GET is parsed with its headers and consumed length")
    func simpleGet() {
        let text = "GET /a/b?x=1 HTTP/1.1\r\nHost: example\r\nX-Two:  spaced value \r\n\r\n"
        guard case .request(let request, let consumed) = parseOnce(text) else {
            Issue.record("expected a request")
            return
        }
        #expect(consumed == text.utf8.count)
        #expect(request.method == "GET")
        #expect(request.target == "/a/b?x=1")
        #expect(request.version == "HTTP/1.1")
        #expect(request.headers["x-two"] == "spaced value")
        #expect(request.keepAlive)
        #expect(request.body.isEmpty)
    }

    @Test("an incomplete head asks for more bytes")
    func incompleteHead() {
        #expect(parseOnce("GET / HTTP/1.1\r\nHost: a\r\n") == .needMore)
        #expect(parseOnce("") == .needMore)
    }

    @Test("empty lines before the request line are skipped and counted as consumed")
    func leadingEmptyLines() {
        let text = "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"
        guard case .request(_, let consumed) = parseOnce(text) else {
            Issue.record("expected a request")
            return
        }
        #expect(consumed == text.utf8.count)
    }

    @Test("malformed request lines are 400", arguments: [
        "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", "GET /\r\nHost: a\r\n\r\n", "G(T / HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", "GET x HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET / http/1.1\r\nHost: a\r\n\r\n", "GET / HTTP/11\r\nHost: a\r\n\r\n", "GET * HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /  HTTP/1.1\r\nHost: a\r\n\r\n", " / HTTP/1.1\r\nHost: a\r\n\r\n", "GET  HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET / HTTP/1.x\r\nHost: a\r\n\r\n", "GET / HTTP/1.10\r\nHost: a\r\n\r\n", "GET / HTTPS1.1\r\nHost: a\r\n\r\n",
    ])
    func malformedRequestLine(text: String) {
        #expect(failureStatus(text) == 400)
    }

    @Test("accepted target forms split into path and query")
    func targetForms() {
        #expect(parsedRequest("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n")?.target == "*")
        let absolute = HTTPRequest(method: "GET", target: "http://h:1/p/q?x=1", version: "HTTP/1.1",
                                   headers: HTTPHeaders(), body: [], remoteAddress: "::1")
        #expect(absolute.path == "/p/q")
        #expect(absolute.query == "x=1")
        let origin = HTTPRequest(method: "GET", target: "/v1/accounts:signUp?key=a%20b", version: "HTTP/1.1",
                                 headers: HTTPHeaders(), body: [], remoteAddress: "127.0.0.1")
        #expect(origin.path == "/v1/accounts:signUp")
        #expect(origin.query == "key=a%20b")
        let bare = HTTPRequest(method: "GET", target: "/x", version: "HTTP/1.1", headers: HTTPHeaders(), body: [],
                               remoteAddress: "127.0.0.1")
        #expect(bare.query == nil)
        func split(_ target: String) -> (String, String?) {
            let request = HTTPRequest(method: "GET", target: target, version: "HTTP/1.1", headers: HTTPHeaders(),
                                      body: [], remoteAddress: "127.0.0.1")
            return (request.path, request.query)
        }
        #expect(split("http://h:1?q=1") == ("/", "q=1"))
        #expect(split("http://h") == ("/", nil))
        #expect(split("/a?b?c=%3F") == ("/a", "b?c=%3F"))
        #expect(split("/?") == ("/", ""))
    }

    @Test("unsupported but well-formed versions are 505")
    func unsupportedVersions() {
        #expect(failureStatus("GET / HTTP/2.0\r\nHost: a\r\n\r\n") == 505)
        #expect(failureStatus("GET / HTTP/0.9\r\nHost: a\r\n\r\n") == 505)
        #expect(failureStatus("GET / HTTP/1.2\r\nHost: a\r\n\r\n") == 505)
    }

    @Test("CONNECT is not implemented")
    func connectIsRefused() {
        #expect(failureStatus("CONNECT a:443 HTTP/1.1\r\nHost: a\r\n\r\n") == 501)
    }

    @Test("bare LF, bare CR, obs-fold and bad header lines are 400", arguments: [
        "GET / HTTP/1.1\nHost: a\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n continued\r\n\r\n", "GET / HTTP/1.1\r\nHost : a\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\n: empty\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{01}b\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nX(y): 1\r\n\r\n",
    ])
    func badHeaderLines(text: String) {
        #expect(failureStatus(text) == 400)
    }

    @Test("a NUL byte in a header value is 400")
    func nulInValue() {
        var bytes = Array("GET / HTTP/1.1\r\nHost: a\r\nX: ab\r\n\r\n".utf8)
        bytes[bytes.count - 6] = 0
        guard case .failure(let status, _) = parseOnce(bytes) else {
            Issue.record("expected failure")
            return
        }
        #expect(status == 400)
    }

    @Test("HTTP/1.1 needs exactly one Host; HTTP/1.0 may omit it")
    func hostRules() {
        #expect(failureStatus("GET / HTTP/1.1\r\n\r\n") == 400)
        #expect(failureStatus("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == 400)
        #expect(parsedRequest("GET / HTTP/1.0\r\n\r\n") != nil)
    }

    @Test("keep-alive follows the version and the Connection field")
    func keepAliveRules() {
        #expect(parsedRequest("GET / HTTP/1.1\r\nHost: a\r\n\r\n")?.keepAlive == true)
        #expect(parsedRequest("GET / HTTP/1.1\r\nHost: a\r\nConnection: Close\r\n\r\n")?.keepAlive == false)
        #expect(parsedRequest("GET / HTTP/1.0\r\n\r\n")?.keepAlive == false)
        #expect(parsedRequest("GET / HTTP/1.0\r\n\r\n")?.version == "HTTP/1.0")
        #expect(parsedRequest("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")?.keepAlive == true)
    }

    @Test("a head larger than maxHeaderBytes is 431, even before it ends")
    func headerBytesLimit() {
        let limits = ParserLimits(maxHeaderBytes: 64)
        let long = "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "a", count: 80)
        #expect(failureStatus(long, limits: limits) == 431)
        #expect(failureStatus(long + "\r\n\r\n", limits: limits) == 431)
        let exact = "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(parsedRequest(exact, limits: ParserLimits(maxHeaderBytes: exact.utf8.count)) != nil)
    }

    @Test("more header fields than maxHeaderCount is 431")
    func headerCountLimit() {
        let limits = ParserLimits(maxHeaderCount: 3)
        let three = "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n"
        #expect(parsedRequest(three, limits: limits) != nil)
        let four = "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n"
        #expect(failureStatus(four, limits: limits) == 431)
    }

    @Test("a failed state stays failed")
    func failureIsSticky() {
        var state = ParserState()
        let bad = Array("GET / HTTP/1.1\nHost: a\r\n\r\n".utf8)
        _ = HTTPRequestParser.parse(bad[...], state: &state, limits: ParserLimits())
        let good = Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        guard case .failure(400, _) = HTTPRequestParser.parse(good[...], state: &state, limits: ParserLimits()) else {
            Issue.record("expected the failure to persist")
            return
        }
    }
}
