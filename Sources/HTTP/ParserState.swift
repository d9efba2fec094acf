/// Everything the parser remembers between calls for the request currently being received.
///
/// The contract: call `HTTPRequestParser.parse` with the bytes of the connection starting at the first
/// unconsumed byte, each time with more bytes appended. The state records how far it has looked, so no byte
/// is examined twice (the chunked decoder in particular resumes where it stopped). After `.request` the
/// caller drops `consumed` bytes and the state is already reset for the next request. After `.failure`
/// the state stays failed: the connection must be closed.
public struct ParserState: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        case head
        case body(RequestHead, BodyFraming)
        case failed(ParseFailure)
    }

    var phase: Phase = .head
    /// Next byte of the head to examine.
    var scanIndex = 0
    /// Where the request line starts, after any empty lines tolerated before it.
    var headStart = 0
    /// Start of the line currently being scanned.
    var lineStart = 0
    /// Lines completed so far (request line included).
    var lineCount = 0
    /// Bytes from the start of the buffer through the blank line ending the head.
    var headLength = 0
    var chunks = ChunkedDecoder(position: 0)
    var continueAcknowledged = false
    /// Whether this request got the large-body limit (`ParserLimits.admitsLargeBody`), decided with its head.
    var largeBodyAdmitted = false

    public init() {}

    /// True once a head with `Expect: 100-continue` (HTTP/1.1) has been read, its body is still missing, and
    /// the server has not yet called `acknowledgeContinue()`: time to send `HTTP/1.1 100 Continue`.
    public var expectsContinue: Bool {
        guard case .body(let head, let framing) = phase, head.expectsContinue, !continueAcknowledged else {
            return false
        }
        switch framing {
        case .none: return false
        case .length(let length): return length > 0
        case .chunked: return true
        }
    }

    /// Records that the interim `100 Continue` response was sent, so it is asked for only once.
    public mutating func acknowledgeContinue() {
        continueAcknowledged = true
    }

    /// Whether any byte of a request has been examined (used to tell "request in progress" from "idle").
    public var hasStartedRequest: Bool {
        switch phase {
        case .head: return scanIndex > 0
        case .body, .failed: return true
        }
    }
}

extension ParserState {
    /// Whether an interim `100 Continue` has been sent for the request in progress.
    public var hasAcknowledgedContinue: Bool { continueAcknowledged }

    /// How many bytes at the front of the buffer the parser has finished with: while a chunked body arrives,
    /// the head and every chunk already decoded into the body. A caller may drop them from its buffer (then
    /// it must call `releaseBytes`), so a long chunked body is held once, decoded, not twice.
    public var releasableByteCount: Int {
        guard case .body(_, .chunked) = phase else { return 0 }
        return chunks.releasableBytes
    }

    /// Records that the caller dropped `count` bytes (at most `releasableByteCount`) from the front of the
    /// buffer; later calls to `parse` pass the buffer without them.
    public mutating func releaseBytes(_ count: Int) {
        guard count > 0 else { return }
        precondition(count <= releasableByteCount, "released bytes the parser still needs")
        chunks.release(count)
    }

    /// Body bytes decoded so far and held in the state (chunked bodies; a Content-Length body stays in the
    /// caller's buffer until it is complete).
    public var decodedBodyByteCount: Int {
        guard case .body(_, .chunked) = phase else { return 0 }
        return chunks.body.count
    }
}
