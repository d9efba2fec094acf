import Testing
@testable import HTTP

@Suite("Body framing and chunked decoding")
struct BodyParserTests {
    @Test("a Content-Length body is read exactly, leaving the next request")
    func contentLengthBody() {
        let text = "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhelloGET"
        guard case .request(let request, let consumed) = parseOnce(text) else {
            Issue.record("expected a request")
            return
        }
        #expect(request.body == Array("hello".utf8))
        #expect(consumed == text.utf8.count - 3)
        #expect(parseOnce("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhel") == .needMore)
    }

    @Test("equal repeated Content-Length values are accepted")
    func equalLengths() {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 2, 2\r\n\r\nok"
        #expect(parsedRequest(text)?.body == Array("ok".utf8))
        let spaced = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2 ,\t2\r\n\r\nok"
        #expect(parsedRequest(spaced)?.body == Array("ok".utf8))
    }

    @Test("invalid or conflicting Content-Length is 400", arguments: [
        "Content-Length: 2\r\nContent-Length: 3", "Content-Length: -1", "Content-Length: 1a", "Content-Length: ",
        "Content-Length: 2,", "Content-Length: +2", "Content-Length: 0x10", "Content-Length: 2, 3",
        "Content-Length: ,2", "Content-Length: 2,,2", "Content-Length: 2 2",
    ])
    func badLengths(field: String) {
        #expect(failureStatus("POST / HTTP/1.1\r\nHost: a\r\n\(field)\r\n\r\nab") == 400)
    }

    @Test("Content-Length with Transfer-Encoding is 400 in either order")
    func lengthAndTransferEncoding() {
        #expect(failureStatus("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n") == 400)
        #expect(failureStatus("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n") == 400)
    }

    @Test("transfer codings other than exactly chunked are 501", arguments: [
        "gzip", "gzip, chunked", "chunked, chunked", "identity", "chunked;q=1",
    ])
    func unsupportedCodings(coding: String) {
        #expect(failureStatus("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \(coding)\r\n\r\n") == 501)
    }

    @Test("Transfer-Encoding in HTTP/1.0 is 400")
    func transferEncodingInHTTP10() {
        #expect(failureStatus("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n") == 400)
    }

    @Test("a body larger than maxBodyBytes is 413 from Content-Length alone")
    func earlyTooLarge() {
        let limits = ParserLimits(maxBodyBytes: 10)
        #expect(failureStatus("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", limits: limits) == 413)
        #expect(failureStatus("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n") == 413)
    }

    @Test("listed POST paths get their own, larger body limit; other paths and methods keep the default")
    func largeBodyPaths() {
        // The application's rule admits one credential; the parser asks it once the head is complete.
        let limits = ParserLimits(maxBodyBytes: 10, largeBodies: LargeBodyPaths(pathSuffixes: ["/accounts:batchCreate"], maxBodyBytes: 20) {
            headers, _ in headers["authorization"] == "Bearer t"
        })
        let body = String(repeating: "x", count: 15)
        let auth = "Authorization: Bearer t\r\n"
        let large = "POST /v1/projects/p/accounts:batchCreate?key=k HTTP/1.1\r\nHost: a\r\n\(auth)Content-Length: 15\r\n\r\n" + body
        #expect(parsedRequest(large, limits: limits)?.body.count == 15)
        let chunked = "POST /v1/projects/p/accounts:batchCreate HTTP/1.1\r\nHost: a\r\n\(auth)Transfer-Encoding: chunked\r\n\r\n"
            + "f\r\n\(body)\r\n0\r\n\r\n"
        #expect(parsedRequest(chunked, limits: limits)?.body.count == 15)
        #expect(failureStatus("POST /v1/projects/p/accounts:batchCreate HTTP/1.1\r\nHost: a\r\n\(auth)Content-Length: 21\r\n\r\n",
                              limits: limits) == 413)
        // Without credentials the rule accepts, the default limit applies: an anonymous flood never gets the
        // larger one, with no Authorization field or with one the rule refuses.
        #expect(failureStatus("POST /v1/projects/p/accounts:batchCreate HTTP/1.1\r\nHost: a\r\nContent-Length: 15\r\n\r\n",
                              limits: limits) == 413)
        #expect(failureStatus("POST /v1/projects/p/accounts:batchCreate HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer x\r\nContent-Length: 15\r\n\r\n",
                              limits: limits) == 413)
        #expect(failureStatus("POST /v1/accounts:signUp HTTP/1.1\r\nHost: a\r\nContent-Length: 15\r\n\r\n", limits: limits) == 413)
        #expect(failureStatus("POST /v1/x?next=/accounts:batchCreate HTTP/1.1\r\nHost: a\r\nContent-Length: 15\r\n\r\n",
                              limits: limits) == 413)
        #expect(failureStatus("PUT /v1/projects/p/accounts:batchCreate HTTP/1.1\r\nHost: a\r\nContent-Length: 15\r\n\r\n",
                              limits: limits) == 413)
    }

    @Test("chunked bodies with extensions and trailers decode")
    func chunkedBody() {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n6 ; x\r\n world\r\n0\r\nTrailer-One: 1\r\n\r\n"
        guard case .request(let request, let consumed) = parseOnce(text) else {
            Issue.record("expected a request")
            return
        }
        #expect(request.body == Array("hello world".utf8))
        #expect(consumed == text.utf8.count)
    }

    @Test("the chunked decoder resumes where it stopped instead of rescanning")
    func chunkedIsIncremental() {
        let bytes = Array(("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "a\r\n0123456789\r\n3\r\nabc\r\n0\r\n\r\n").utf8)
        var state = ParserState()
        var positions: [Int] = []
        for end in 1..<bytes.count {
            #expect(HTTPRequestParser.parse(bytes[0..<end], state: &state, limits: ParserLimits()) == .needMore)
            if case .body = state.phase { positions.append(state.chunks.position) }
        }
        #expect(positions == positions.sorted())
        #expect(positions.last == bytes.count - 1)
        guard case .request(let request, _) = HTTPRequestParser.parse(bytes[...], state: &state,
                                                                     limits: ParserLimits()) else {
            Issue.record("expected a request")
            return
        }
        #expect(request.body == Array("0123456789abc".utf8))
    }

    @Test("bad chunked framing is 400", arguments: [
        "x\r\nab\r\n0\r\n\r\n", "2\r\nabc\r\n0\r\n\r\n", "2\nab\r\n0\r\n\r\n", "2\r\nab\n0\r\n\r\n",
        "2 x\r\nab\r\n0\r\n\r\n", "11111111111111111\r\n", "0\r\nbad trailer\r\n\r\n", "2\r\nab\r\n0\r\n\n",
    ])
    func badChunks(chunks: String) {
        #expect(failureStatus("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks) == 400)
    }

    @Test("chunked bodies over maxBodyBytes are 413 while decoding")
    func chunkedTooLarge() {
        let limits = ParserLimits(maxBodyBytes: 8)
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(failureStatus(head + "5\r\nhello\r\n4\r\n", limits: limits) == 413)
        #expect(failureStatus(head + "ffffffffffffffff\r\n", limits: limits) == 413)
    }

    @Test("Expect: 100-continue is reported once the head is in and the body is missing")
    func expectContinue() {
        let bytes = Array("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8)
        var state = ParserState()
        #expect(HTTPRequestParser.parse(bytes[...], state: &state, limits: ParserLimits()) == .needMore)
        #expect(state.expectsContinue)
        state.acknowledgeContinue()
        #expect(!state.expectsContinue)
        #expect(state.hasAcknowledgedContinue)
        let limits = ParserLimits(maxBodyBytes: 1)
        var small = ParserState()
        guard case .failure(413, _) = HTTPRequestParser.parse(bytes[...], state: &small, limits: limits) else {
            Issue.record("expected 413 instead of 100 Continue")
            return
        }
    }

    @Test("parseAll returns pipelined requests in order")
    func pipelined() {
        let text = "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\nxGET /3 HTTP/1.1\r\n"
        let results = HTTPRequestParser.parseAll(Array(text.utf8), limits: ParserLimits())
        let targets = results.compactMap { result -> String? in
            if case .request(let request, _) = result { return request.target }
            return nil
        }
        #expect(targets == ["/1", "/2"])
        #expect(results.last == .needMore)
    }
}
