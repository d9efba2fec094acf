import Synchronization

/// State shared by every event loop of one server: configuration, handler and the connection quota.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: HTTPHandler
    let limits: ParserLimits
    let requestDeadline: Int64
    let idleTimeout: Int64
    let lingerTimeout: Int64
    let quota: ConnectionQuota
    /// The most bytes one connection has held at once (unparsed input plus decoded body): a deterministic
    /// measure that the request limits bound memory, whatever a client sends.
    let largestConnectionBuffer = Atomic<Int>(0)
    /// Responses written by the handler's own thread rather than the loop (see `ResponseHandoff`); for tests.
    let directAnswers = Atomic<Int>(0)
    let dates = SharedHTTPDate()

    init(configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        self.limits = configuration.parserLimits
        self.requestDeadline = max(1, configuration.requestDeadline.milliseconds)
        self.idleTimeout = max(1, configuration.idleTimeout.milliseconds)
        self.lingerTimeout = max(1, configuration.lingerTimeout.milliseconds)
        self.quota = ConnectionQuota(maxConnections: configuration.maxConnections,
                                     maxPerClient: max(1, configuration.maxConnectionsPerClient),
                                     exemptions: configuration.perClientLimitExemptions)
    }

    func recordBuffered(_ bytes: Int) {
        largestConnectionBuffer.max(bytes, ordering: .relaxed)
    }
}
