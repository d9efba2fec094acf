/// One HTTP request to a provider endpoint (Apple JWKS/token/revoke, Facebook Graph, Telegram).
///
/// A plain value so providers can build it without knowing about libcurl, and fakes can inspect it.
public struct OutboundRequest: Sendable {
    /// The HTTP method token, for example `GET` or `POST`.
    public var method: String
    /// An absolute `http://` or `https://` URL; anything else is refused before a transfer starts.
    public var url: String
    /// Extra request headers, sent in order. Names and values must not contain CR, LF or NUL.
    public var headers: [(String, String)]
    /// The request body, sent byte-exact (empty means no body for GET/HEAD, an empty body otherwise).
    public var body: [UInt8]
    /// Bounds both connecting and the whole exchange, so one slow provider cannot pin a worker thread.
    public var timeout: Duration

    public init(method: String = "GET", url: String, headers: [(String, String)] = [], body: [UInt8] = [],
                timeout: Duration = .seconds(10)) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The answer from a provider endpoint. Every HTTP status (including 4xx/5xx) arrives here, not as an error,
/// because providers give meaning to error bodies (for example OAuth `invalid_grant`).
public struct OutboundResponse: Sendable {
    public var status: Int
    /// Response headers of the final response, in arrival order, duplicates kept.
    public var headers: [(String, String)]
    public var body: [UInt8]

    /// Public so tests and fakes of `HTTPFetching` can build responses.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name`, compared case-insensitively as HTTP requires.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.0.lowercased() == wanted }?.1
    }
}

/// Why an outbound exchange produced no HTTP response.
public enum OutboundError: Error, Equatable, Sendable {
    /// The URL is malformed or uses a scheme other than http/https; nothing was sent.
    case invalidURL
    /// The request timeout elapsed before the response was complete.
    case timedOut
    /// The host could not be resolved, reached, or the TLS handshake failed.
    case connectionFailed(String)
    /// The response was larger than the client's `maxResponseBytes`.
    case tooLarge
    /// Any other transfer failure, with libcurl's description.
    case transport(String)
    /// The request itself is unusable (a bad method token, or a header containing CR/LF/NUL); nothing was sent.
    case invalidRequest(String)
}

/// What providers depend on to reach the network, so tests can inject fakes instead of real endpoints.
public protocol HTTPFetching: Sendable {
    func send(_ request: OutboundRequest) async throws -> OutboundResponse
}
