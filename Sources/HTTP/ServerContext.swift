import Synchronization

/// State shared by every event loop of one server: configuration, handler and the global connection count.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: HTTPHandler
    let limits: ParserLimits
    let requestDeadline: Int64
    let idleTimeout: Int64
    let lingerTimeout: Int64
    let openConnections = Atomic<Int>(0)

    init(configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        self.limits = configuration.parserLimits
        self.requestDeadline = max(1, configuration.requestDeadline.milliseconds)
        self.idleTimeout = max(1, configuration.idleTimeout.milliseconds)
        self.lingerTimeout = max(1, configuration.lingerTimeout.milliseconds)
    }

    /// Reserves a slot for a new connection; false when the cap is reached.
    func reserveConnection() -> Bool {
        let after = openConnections.add(1, ordering: .relaxed).newValue
        if after > configuration.maxConnections {
            openConnections.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func releaseConnection() {
        openConnections.subtract(1, ordering: .relaxed)
    }
}
