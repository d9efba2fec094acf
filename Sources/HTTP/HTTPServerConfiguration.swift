import Glibc
import IPNetworks

/// Tunables for `HTTPServer`. Defaults suit a gateway behind a TLS proxy on the same host.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric IPv4 or IPv6 address to bind ("localhost" is read as 127.0.0.1).
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 asks the kernel for an ephemeral port, which `HTTPServer.start()` returns.
    public var port: Int = 9099
    /// Event-loop threads, each with its own epoll and its own SO_REUSEPORT listener on the same port (the
    /// port must be free when the server starts: see `HTTPServerError.addressInUse`).
    public var eventLoopCount: Int = HTTPServerConfiguration.onlineProcessorCount
    /// How the kernel schedules the loop threads (see `EventLoopScheduling`).
    public var eventLoopScheduling: EventLoopScheduling = .batch
    /// Bytes from the first byte of a request through the blank line ending its head (431 beyond).
    public var maxHeaderBytes: Int = 16 * 1024
    /// Header fields per request (431 beyond).
    public var maxHeaderCount: Int = 100
    /// Decoded body bytes per request (413 beyond).
    public var maxBodyBytes: Int = 1 << 20
    /// Paths allowed a larger body than `maxBodyBytes` (admin imports); nil: none.
    public var largeBodies: LargeBodyPaths?
    /// Time from the first byte of a request until it is complete (for a new connection, from the accept);
    /// defeats slowloris, slow POST and connections opened only to hold a slot.
    public var requestDeadline: Duration = .seconds(10)
    /// Time a keep-alive connection may sit with no request in progress.
    public var idleTimeout: Duration = .seconds(30)
    /// Open connections across all loops; connections beyond it are accepted and closed at once. Within a
    /// tenth of it, idle keep-alive connections are closed to make room.
    public var maxConnections: Int = 10_000
    /// Open connections from one client (an IPv4 address or an IPv6 /64), so one client cannot take the
    /// pool; connections beyond it are accepted and closed at once.
    public var maxConnectionsPerClient: Int = 256
    /// Peers not subject to `maxConnectionsPerClient` (trusted reverse proxies, which carry many clients'
    /// connections and have their own per-client limits); they still count toward `maxConnections`.
    public var perClientLimitExemptions: [NetworkRange] = []
    /// How long a closing connection keeps draining unread input so the peer sees the final response
    /// rather than a reset.
    public var lingerTimeout: Duration = .seconds(2)
    /// The response for a request the server refuses before any handler sees it (400 malformed, 408 too slow,
    /// 413 body too large, 431 head too large, 503 shutting down), from its status and a reason in words.
    /// Plain text by default; an application whose clients parse errors (Google's JSON envelope) renders its own.
    /// The server still owns framing: the connection is closed after this response, whatever its headers say.
    public var refusalResponse: @Sendable (_ status: Int, _ reason: String) -> HTTPResponse = HTTPServerConfiguration.plainRefusal

    public init() {}

    /// The default refusal: `text/plain`, the reason and a newline.
    public static func plainRefusal(status: Int, reason: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: Array((reason + "\n").utf8))
    }

    public init(host: String = "127.0.0.1", port: Int = 9099,
                eventLoopCount: Int = HTTPServerConfiguration.onlineProcessorCount,
                maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 1 << 20,
                requestDeadline: Duration = .seconds(10), idleTimeout: Duration = .seconds(30),
                maxConnections: Int = 10_000, maxConnectionsPerClient: Int = 256,
                perClientLimitExemptions: [NetworkRange] = []) {
        self.host = host
        self.port = port
        self.eventLoopCount = eventLoopCount
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.requestDeadline = requestDeadline
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.perClientLimitExemptions = perClientLimitExemptions
    }

    /// The number of online CPUs, at least 1.
    public static var onlineProcessorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    var parserLimits: ParserLimits {
        ParserLimits(maxHeaderBytes: maxHeaderBytes, maxHeaderCount: maxHeaderCount, maxBodyBytes: maxBodyBytes,
                     largeBodies: largeBodies)
    }
}

extension Duration {
    /// Whole milliseconds, rounded down; what the loop's millisecond clock compares against.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
