/// A complete request handed to the application handler.
public struct HTTPRequest: Sendable {
    /// The method token as sent, e.g. "GET" or "POST" (methods are case-sensitive).
    public var method: String
    /// The raw request-target from the request line.
    public var target: String
    /// The target's path, before any '?', not percent-decoded. For an absolute-form target
    /// (`http://host/p?q`) this is the path part (`/p`), or "/" when it has none.
    public var path: String
    /// The raw text after the first '?', if there was one.
    public var query: String?
    /// "HTTP/1.1" or "HTTP/1.0".
    public var version: String
    public var headers: HTTPHeaders
    /// The fully decoded body (chunked coding already removed).
    public var body: [UInt8]
    /// The peer's IP address as text, e.g. "127.0.0.1" or "::1".
    public var remoteAddress: String

    public init(method: String, target: String, version: String, headers: HTTPHeaders, body: [UInt8],
                remoteAddress: String) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        (path, query) = Self.split(target)
    }

    /// Splits a request-target into path and query without decoding either. Searches bytes, not Characters:
    /// a target is ASCII by the parser's rules, and grapheme-aware search cost ~2% of a small request.
    static func split(_ target: String) -> (path: String, query: String?) {
        var pathAndQuery = Substring(target)
        if !target.hasPrefix("/"), let scheme = ByteClass.schemeSeparator(in: target) {
            let afterAuthority = target[target.utf8.index(scheme, offsetBy: 3)...]
            if let slash = afterAuthority.utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) {
                pathAndQuery = afterAuthority[slash...]
            } else {
                pathAndQuery = ""
            }
        }
        guard let mark = pathAndQuery.utf8.firstIndex(of: UInt8(ascii: "?")) else {
            return (pathAndQuery.isEmpty ? "/" : String(pathAndQuery), nil)
        }
        let path = pathAndQuery[..<mark]
        let query = pathAndQuery[pathAndQuery.utf8.index(after: mark)...]
        return (path.isEmpty ? "/" : String(path), String(query))
    }
}

/// A response produced by the handler. The server adds `Content-Length`, `Date` and, when it closes the
/// connection, `Connection: close`; those fields set by the handler are replaced.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
