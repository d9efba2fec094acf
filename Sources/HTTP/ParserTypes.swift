/// Limits the parser enforces; the server fills them from `HTTPServerConfiguration`.
public struct ParserLimits: Sendable {
    /// Bytes from the start of a request up to and including the blank line ending its head (431 beyond).
    public var maxHeaderBytes: Int
    /// Header fields in one request head, and separately in one chunked trailer (431 beyond).
    public var maxHeaderCount: Int
    /// Decoded body bytes (413 beyond, decided from Content-Length before any body byte arrives).
    public var maxBodyBytes: Int
    /// Length of one chunk-size line including extensions (400 beyond). Extensions carry nothing this server
    /// uses, so the cap is small: long extension lines would otherwise let a client send megabytes of framing
    /// per decoded body byte.
    public var maxChunkLineBytes: Int
    /// Every byte of one request on the wire: head, chunk-size lines, extensions, CRLFs, trailers and data
    /// (413 beyond). `maxBodyBytes` alone bounds only the decoded body; this bounds what a chunked request can
    /// make the server read and examine. The default leaves room for the head, a trailer section as large as
    /// a head, the body, and chunk framing of an eighth of the body (any chunk of 64 bytes or more fits).
    public var maxRequestBytes: Int
    /// POST paths (matched by their end, before any query) allowed a larger body, e.g. admin batch imports of
    /// 1000 users, without raising the limit for every other request.
    public var largeBodies: LargeBodyPaths?

    public init(maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 1 << 20,
                maxChunkLineBytes: Int = 256, maxRequestBytes: Int? = nil, largeBodies: LargeBodyPaths? = nil) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.maxChunkLineBytes = maxChunkLineBytes
        self.maxRequestBytes = maxRequestBytes ?? Self.requestBytes(header: maxHeaderBytes, body: maxBodyBytes)
        self.largeBodies = largeBodies
    }

    /// Whether the request with this head, from `peer`, gets the large-body limit: a POST to one of the listed
    /// paths whose credentials the server's `admits` rule accepts. Decided once per request, when its head is
    /// complete, so a client without an admin credential never makes the server hold more than `maxBodyBytes`.
    func admitsLargeBody(_ head: RequestHead, peer: String) -> Bool {
        guard let largeBodies, head.method == "POST", largeBodies.maxBodyBytes > maxBodyBytes else { return false }
        // Compared as bytes: every POST passes here, and Character-wise `hasSuffix` cost 1.5% of a lookup.
        let target = head.target.utf8
        let path = target[..<(target.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)]
        guard largeBodies.pathSuffixes.contains(where: { suffix in
            path.count >= suffix.utf8.count && path.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
        }) else { return false }
        return largeBodies.admits(head.headers, peer)
    }

    /// These limits, with the large-body limit when the request was admitted to it.
    func forRequest(largeBody admitted: Bool) -> ParserLimits {
        guard admitted, let largeBodies else { return self }
        var limits = self
        limits.maxBodyBytes = largeBodies.maxBodyBytes
        limits.maxRequestBytes = Self.requestBytes(header: maxHeaderBytes, body: largeBodies.maxBodyBytes)
        return limits
    }

    /// The default `maxRequestBytes`: two heads' worth (head and trailers), the body, an eighth more for framing.
    static func requestBytes(header: Int, body: Int) -> Int {
        let (heads, overflowA) = header.multipliedReportingOverflow(by: 2)
        let (total, overflowB) = heads.addingReportingOverflow(body)
        let (withFraming, overflowC) = total.addingReportingOverflow(body / 8)
        return overflowA || overflowB || overflowC ? Int.max : withFraming
    }
}

/// Request paths whose bodies may be larger than the server-wide limit, how large, and who may send them.
public struct LargeBodyPaths: Sendable {
    public var pathSuffixes: [String]
    public var maxBodyBytes: Int
    /// Whether a request with these header fields, from this socket peer, may send a large body. The server
    /// knows nothing of credentials, so the application decides; the rule runs on an event loop once per
    /// request head and must be cheap (a digest or a seal check, never a KDF, a signature or I/O).
    public var admits: @Sendable (_ headers: HTTPHeaders, _ peer: String) -> Bool

    public init(pathSuffixes: [String], maxBodyBytes: Int, admits: @escaping @Sendable (_ headers: HTTPHeaders, _ peer: String) -> Bool) {
        self.pathSuffixes = pathSuffixes
        self.maxBodyBytes = maxBodyBytes
        self.admits = admits
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

    /// 413 naming the body limit that applied to this request (the import routes have their own), in Google's
    /// words, so the rendered message tells a client exactly how much it may send.
    static func bodyTooLarge(limit: Int) -> ParseFailure {
        ParseFailure(status: 413, reason: "request payload size exceeds the limit: \(limit) bytes")
    }
}
