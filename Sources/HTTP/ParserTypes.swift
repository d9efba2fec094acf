/// Limits the parser enforces; the server fills them from `HTTPServerConfiguration`.
public struct ParserLimits: Sendable, Equatable {
    /// Bytes from the start of a request up to and including the blank line ending its head (431 beyond).
    public var maxHeaderBytes: Int
    /// Header fields in one request head, and separately in one chunked trailer (431 beyond).
    public var maxHeaderCount: Int
    /// Decoded body bytes (413 beyond, decided from Content-Length before any body byte arrives).
    public var maxBodyBytes: Int
    /// Length of one chunk-size line including extensions (400 beyond), so a line cannot grow forever.
    public var maxChunkLineBytes: Int

    public init(maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 1 << 20,
                maxChunkLineBytes: Int = 4096) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.maxChunkLineBytes = maxChunkLineBytes
    }
}

/// A complete request as the parser sees it: no socket details, body fully decoded.
public struct ParsedRequest: Sendable, Equatable {
    public var method: String
    public var target: String
    public var version: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Whether the connection may carry another request after this one (HTTP/1.1 default, or HTTP/1.0
    /// with `Connection: keep-alive`, and no `Connection: close`).
    public var keepAlive: Bool

    public init(method: String, target: String, version: String, headers: HTTPHeaders, body: [UInt8],
                keepAlive: Bool) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.keepAlive = keepAlive
    }
}

/// What one call to `HTTPRequestParser.parse` found.
public enum ParseResult: Sendable, Equatable {
    /// The bytes so far are a valid prefix of a request; call again with more bytes appended.
    case needMore
    /// A complete request occupying the first `consumed` bytes of the buffer.
    case request(ParsedRequest, consumed: Int)
    /// The bytes can never become a valid request. `status` is what the server should answer
    /// (400, 413, 431, 501 or 505) before closing the connection.
    case failure(status: Int, reason: String)
}

/// A request-level failure carried inside the parser before it becomes a `ParseResult`.
struct ParseFailure: Error, Equatable, Sendable {
    var status: Int
    var reason: String

    static func badRequest(_ reason: String) -> ParseFailure { ParseFailure(status: 400, reason: reason) }
}
