import Glibc
import Synchronization

/// The application's request handler. It runs in a Swift task on the global concurrent executor, never on
/// an event-loop thread, so it may await slow work (scrypt, database calls) without stalling other
/// connections.
public typealias HTTPHandler = @Sendable (HTTPRequest) async -> HTTPResponse

/// An HTTP/1.1 server on epoll: N event-loop threads, each with its own SO_REUSEPORT listener.
///
/// ```swift
/// let server = HTTPServer(configuration: HTTPServerConfiguration()) { request in
///     HTTPResponse(status: 200, body: Array("hello".utf8))
/// }
/// let port = try server.start()
/// _ = await SignalWaiter.waitForTermination()
/// await server.shutdown(gracePeriod: .seconds(10))
/// ```
public final class HTTPServer: Sendable {
    private enum Lifecycle {
        case idle
        case running([EventLoop], ports: [Int])
        case finished
    }

    private let context: ServerContext
    private let lifecycle = Mutex(Lifecycle.idle)

    public init(configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler) {
        context = ServerContext(configuration: configuration, handler: handler)
    }

    /// Binds every loop's listener to the same port, starts the loop threads and returns the bound port
    /// (the kernel's choice when the configuration asked for port 0). Throws `addressInUse` when something
    /// already listens on the address.
    public func start() throws(HTTPServerError) -> Int {
        try lifecycle.withLock { (state: inout Lifecycle) throws(HTTPServerError) -> Int in
            guard case .idle = state else { throw .alreadyStarted }
            let configuration = context.configuration
            var listeners: [Listener] = []
            var loops: [EventLoop] = []
            var startedCount = 0
            do throws(HTTPServerError) {
                try Listener.checkAvailable(host: configuration.host, port: configuration.port)
                let first = try Listener.bind(host: configuration.host, port: configuration.port)
                listeners.append(first)
                for _ in 1..<max(1, configuration.eventLoopCount) {
                    listeners.append(try Listener.bind(host: configuration.host, port: first.port))
                }
                for (index, listener) in listeners.enumerated() {
                    loops.append(try EventLoop(context: context, listener: listener, loopIndex: index))
                }
                for loop in loops {
                    try loop.startThread()
                    startedCount += 1
                }
            } catch {
                for listener in listeners.dropFirst(loops.count) { close(listener.fd) }
                for loop in loops.prefix(startedCount) { loop.completions.post(.stop) }
                for loop in loops.dropFirst(startedCount) { loop.discardUnstarted() }
                throw error
            }
            state = .running(loops, ports: listeners.map(\.port))
            return listeners[0].port
        }
    }

    /// The kernel ids of the running loops' threads (0 for a loop whose thread has not started yet), for tests.
    var loopThreadIDs: [Int32] {
        lifecycle.withLock { state in
            guard case .running(let loops, _) = state else { return [] }
            return loops.map { $0.threadID.load(ordering: .acquiring) }
        }
    }

    /// `epoll_wait` calls that returned, across the running loops (for tests that a loop does not spin).
    var loopRounds: Int {
        lifecycle.withLock { state in
            guard case .running(let loops, _) = state else { return 0 }
            return loops.reduce(0) { $0 + $1.rounds.load(ordering: .relaxed) }
        }
    }

    /// `epoll_ctl` calls that changed a connection's events, across the running loops (for tests).
    var interestChangeCount: Int {
        lifecycle.withLock { state in
            guard case .running(let loops, _) = state else { return 0 }
            return loops.reduce(0) { $0 + $1.interestChanges.load(ordering: .relaxed) }
        }
    }

    /// Throws `addressInUse` when something already listens on `host:port` (`start()` checks this too); lets
    /// a program refuse to start before it opens anything else, such as its database.
    public static func checkAvailable(host: String, port: Int) throws(HTTPServerError) {
        try Listener.checkAvailable(host: host, port: port)
    }

    /// Stops accepting, closes idle connections, lets requests already received finish (their responses
    /// are written with `Connection: close`), and returns when no connection is left. Connections still
    /// open after `gracePeriod` are closed forcibly. Partly received requests may still complete within the
    /// grace period. Calling it again (or before `start`) returns at once.
    public func shutdown(gracePeriod: Duration) async {
        let loops: [EventLoop] = lifecycle.withLock { state in
            defer { state = .finished }
            if case .running(let loops, _) = state { return loops }
            return []
        }
        guard !loops.isEmpty else { return }
        for loop in loops { loop.completions.post(.beginShutdown) }
        let clock = ContinuousClock()
        let deadline = clock.now + gracePeriod
        while connectionCount > 0 && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        for loop in loops { loop.completions.post(.stop) }
        while !loops.allSatisfy({ $0.hasFinished.load(ordering: .acquiring) }) {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The port of every loop's listener while running (all equal by construction).
    var listenerPorts: [Int] {
        lifecycle.withLock { state in
            if case .running(_, let ports) = state { return ports }
            return []
        }
    }

    /// Open connections across all loops.
    public var connectionCount: Int {
        context.quota.openConnections.load(ordering: .relaxed)
    }

    /// Responses the handlers' threads wrote themselves (see `ResponseHandoff`).
    var directAnswerCount: Int {
        context.directAnswers.load(ordering: .relaxed)
    }

    /// The most bytes any one connection has held so far (unparsed input plus decoded chunked body).
    var largestConnectionBuffer: Int {
        context.largestConnectionBuffer.load(ordering: .relaxed)
    }
}
