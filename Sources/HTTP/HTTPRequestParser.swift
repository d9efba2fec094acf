/// A pure HTTP/1.1 request parser: value-type state in, value out, no I/O.
///
/// Policy (strict by choice, documented so clients know what is refused):
/// - Every line ends in CRLF. A bare LF or a bare CR anywhere in the head or chunk framing is a 400.
/// - Empty lines before the request line are skipped (RFC 9112 §2.2); they count toward `maxHeaderBytes`.
/// - obs-fold (a header line starting with SP or HTAB), whitespace before the colon, empty or non-token
///   names and control bytes in values are 400.
/// - Versions other than HTTP/1.0 and HTTP/1.1 are 505 when well-formed (`HTTP/d.d`), 400 otherwise.
/// - HTTP/1.1 requests need exactly one Host field; more than one Host is always 400.
/// - Content-Length with Transfer-Encoding, differing or malformed Content-Length values, and
///   Transfer-Encoding in HTTP/1.0 are 400; any Transfer-Encoding other than exactly `chunked` is 501.
/// - CONNECT is 501 (this server is not a proxy).
public enum HTTPRequestParser {
    /// Parses the request at the start of `buffer`, resuming from `state`. `peer` is the socket peer's address,
    /// which the large-body rule (`LargeBodyPaths.admits`) may consider.
    public static func parse(_ buffer: ArraySlice<UInt8>, state: inout ParserState,
                             limits: ParserLimits, peer: String = "") -> ParseResult {
        if case .failed(let failure) = state.phase {
            return .failure(status: failure.status, reason: failure.reason)
        }
        do throws(ParseFailure) {
            if case .head = state.phase {
                guard try scanHead(buffer, state: &state, limits: limits) else { return .needMore }
                let lines = HeadLines(buffer: buffer, from: state.headStart, to: state.headLength)
                let head = try RequestHeadParser.parse(lines)
                state.largeBodyAdmitted = limits.admitsLargeBody(head, peer: peer)
                let framing = try FramingRules.framing(for: head, limits: limits.forRequest(largeBody: state.largeBodyAdmitted))
                state.phase = .body(head, framing)
                state.chunks = ChunkedDecoder(position: state.headLength)
            }
            guard case .body(let head, let framing) = state.phase else { return .needMore }
            let requestLimits = limits.forRequest(largeBody: state.largeBodyAdmitted)
            guard let (body, end) = try readBody(buffer, framing: framing, state: &state, limits: requestLimits) else {
                return .needMore
            }
            state = ParserState()
            let request = ParsedRequest(method: head.method, target: head.target, version: head.version,
                                        headers: head.headers, body: body, keepAlive: head.keepAlive)
            return .request(request, consumed: end)
        } catch {
            state.phase = .failed(error)
            return .failure(status: error.status, reason: error.reason)
        }
    }

    /// Parses a whole buffer at once, returning every complete request and the final result
    /// (`.needMore` or `.failure`). Handy for tests and tools; the server parses incrementally instead.
    public static func parseAll(_ bytes: [UInt8], limits: ParserLimits) -> [ParseResult] {
        var results: [ParseResult] = []
        var state = ParserState()
        var offset = 0
        while true {
            let result = parse(bytes[offset...], state: &state, limits: limits)
            results.append(result)
            guard case .request(_, let consumed) = result else { return results }
            offset += consumed
        }
    }

    /// Advances over head bytes; returns true once the blank line ending the head has been seen.
    private static func scanHead(_ buffer: ArraySlice<UInt8>, state: inout ParserState,
                                 limits: ParserLimits) throws(ParseFailure) -> Bool {
        let base = buffer.startIndex
        let count = buffer.count
        while state.scanIndex < count {
            let index = state.scanIndex
            if index >= limits.maxHeaderBytes {
                throw ParseFailure(status: 431, reason: "request header block is too large")
            }
            let byte = buffer[base + index]
            let previous: UInt8 = index > 0 ? buffer[base + index - 1] : 0
            if byte == ByteClass.lineFeed {
                guard previous == ByteClass.carriageReturn else { throw .badRequest("bare LF in request head") }
                let lineEnd = index - 1
                if lineEnd == state.lineStart {
                    if state.lineStart == state.headStart {
                        state.headStart = index + 1
                        state.lineStart = index + 1
                    } else {
                        state.headLength = index + 1
                        state.scanIndex = index + 1
                        return true
                    }
                } else {
                    state.lineCount += 1
                    if state.lineCount - 1 > limits.maxHeaderCount {
                        throw ParseFailure(status: 431, reason: "too many header fields")
                    }
                    state.lineStart = index + 1
                }
            } else if previous == ByteClass.carriageReturn {
                throw .badRequest("bare CR in request head")
            }
            state.scanIndex = index + 1
        }
        return false
    }

    /// Returns the decoded body and the offset just past it, or nil when more bytes are needed.
    private static func readBody(_ buffer: ArraySlice<UInt8>, framing: BodyFraming, state: inout ParserState,
                                 limits: ParserLimits) throws(ParseFailure) -> ([UInt8], Int)? {
        switch framing {
        case .none:
            return ([], state.headLength)
        case .length(let length):
            let end = state.headLength + length
            guard buffer.count >= end else { return nil }
            let base = buffer.startIndex
            return (Array(buffer[(base + state.headLength)..<(base + end)]), end)
        case .chunked:
            guard let end = try state.chunks.advance(buffer, limits: limits) else { return nil }
            return (state.chunks.body, end)
        }
    }
}

/// The CRLF-separated lines of a complete head, as byte slices (the final empty line excluded).
struct HeadLines {
    var lines: [ArraySlice<UInt8>] = []

    init(buffer: ArraySlice<UInt8>, from start: Int, to end: Int) {
        lines.reserveCapacity(16)  // a request line and the usual handful of fields: one allocation
        let base = buffer.startIndex
        var lineStart = base + start
        var index = lineStart
        let last = base + end - 2
        while index < last {
            if buffer[index] == ByteClass.carriageReturn {
                lines.append(buffer[lineStart..<index])
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
    }
}
