import CLinux
import Glibc
import Synchronization

/// One thread running one epoll instance: accepts on its own listener, reads, parses, writes and times out
/// its connections. Handlers never run here; they run in Swift tasks and answer through `completions`, or,
/// when only reading can follow the answer, write it from their own thread under a `ResponseHandoff`.
///
/// Everything except `completions`, the atomics and each connection's `handoff` is touched only by the loop
/// thread, which is why the class is `@unchecked Sendable`: it is handed to its thread once and to handler
/// tasks only to `post`.
final class EventLoop: @unchecked Sendable {
    static let listenerToken = UInt64.max
    static let wakeToken = UInt64.max - 1
    static let timerInterval: Int64 = 100

    let context: ServerContext
    let completions: CompletionQueue
    let hasFinished = Atomic<Bool>(false)
    let epollFD: Int32
    /// The loop thread's kernel id once it runs (0 before), for tests of its scheduling.
    let threadID = Atomic<Int32>(0)
    /// `epoll_wait` calls that returned, and `epoll_ctl` calls that changed a connection's events: for tests that
    /// the loop neither spins nor re-arms per request. Written by the loop thread only.
    let rounds = Atomic<Int>(0)
    let interestChanges = Atomic<Int>(0)

    var listener: Listener?
    var connections: [Int32: Connection] = [:]
    var isDraining = false
    /// When draining began (monotonic ms): half-received requests get a short grace, then 503.
    var drainStartedAt: Int64 = 0
    var isAcceptPaused = false
    var isStopped = false
    var nextConnectionID: UInt64 = 0
    var nextTimerCheck: Int64 = 0
    var dates = HTTPDateCache()
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(context: ServerContext, listener: Listener, loopIndex: Int) throws(HTTPServerError) {
        self.context = context
        self.listener = listener
        self.nextConnectionID = UInt64(loopIndex) << 48
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw .systemCallFailed(operation: "epoll_create1", code: errno) }
        do {
            completions = try CompletionQueue()
        } catch {
            close(epollFD)
            throw error
        }
        register(fd: listener.fd, token: Self.listenerToken, events: EPOLLIN.rawValue, operation: EPOLL_CTL_ADD)
        register(fd: completions.eventFD, token: Self.wakeToken, events: EPOLLIN.rawValue, operation: EPOLL_CTL_ADD)
    }

    /// Starts the loop on a dedicated POSIX thread (not a cooperative-pool thread: it blocks in epoll_wait).
    func startThread() throws(HTTPServerError) {
        let retained = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            let loop = Unmanaged<EventLoop>.fromOpaque(argument!).takeRetainedValue()
            EventLoopThreads.markCurrentThread()
            _ = shim_name_current_thread("http-loop")
            loop.context.configuration.eventLoopScheduling.applyToCurrentThread()
            loop.threadID.store(shim_current_thread_id(), ordering: .releasing)
            loop.run()
            EventLoopThreads.unmarkCurrentThread()
            return nil
        }, retained)
        guard result == 0 else {
            Unmanaged<EventLoop>.fromOpaque(retained).release()
            throw .systemCallFailed(operation: "pthread_create", code: result)
        }
        pthread_detach(thread)
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while !isStopped {
            let count = epoll_wait(epollFD, &events, Int32(events.count), Int32(Self.timerInterval))
            rounds.store(rounds.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
            if count < 0 && errno != EINTR { break }
            for index in 0..<max(0, Int(count)) where !isStopped {
                handle(token: events[index].data.u64, events: events[index].events)
            }
            let now = MonotonicClock.nowMilliseconds()
            if now >= nextTimerCheck && !isStopped {
                nextTimerCheck = now + Self.timerInterval
                resumeAcceptingIfPaused()
                checkTimers(now: now)
            }
        }
        tearDown()
    }

    private func handle(token: UInt64, events: UInt32) {
        switch token {
        case Self.listenerToken:
            acceptConnections()
        case Self.wakeToken:
            for message in completions.drain() { receive(message) }
        default:
            guard let connection = Self.connection(for: token, in: connections) else { return }
            connectionEvent(connection, events: events)
        }
    }

    private func receive(_ message: LoopMessage) {
        switch message {
        case .response(let fd, let id, let response):
            guard let connection = connections[fd], connection.id == id, connection.phase == .handling else { return }
            respond(connection, with: response)
        case .rest(let fd, let id, let bytes, let sent):
            guard let connection = connections[fd], connection.id == id, connection.phase == .handling else { return }
            write(bytes, alreadySent: sent, keepAlive: !isDraining, on: connection)
        case .answered(let fd, let id):
            guard let connection = connections[fd], connection.id == id, connection.phase == .handling,
                  connection.handoff.collect(watching: false) == .answered else { return }
            adoptDirectAnswer(connection)
        case .beginShutdown:
            beginDraining()
        case .stop:
            isStopped = true
        }
    }

    private func beginDraining() {
        isDraining = true
        drainStartedAt = MonotonicClock.nowMilliseconds()
        closeListener()
        for connection in Array(connections.values) {
            // A handler answering directly either finishes first or leaves the answer to this loop, which then
            // writes it with `Connection: close`.
            if connection.phase == .handling, connection.handoff.revoke() == .answered {
                adoptDirectAnswer(connection)
            }
            if connection.isIdle { closeConnection(connection) }
        }
    }

    private func closeListener() {
        guard let listener else { return }
        epoll_ctl(epollFD, EPOLL_CTL_DEL, listener.fd, nil)
        close(listener.fd)
        self.listener = nil
    }

    /// Releases the descriptors of a loop whose thread never started (a failed `HTTPServer.start()`).
    func discardUnstarted() {
        tearDown()
    }

    private func tearDown() {
        closeListener()
        for connection in Array(connections.values) { closeConnection(connection) }
        completions.close()
        close(epollFD)
        hasFinished.store(true, ordering: .releasing)
    }

    /// One `epoll_ctl` call.
    func register(fd: Int32, token: UInt64, events: UInt32, operation: Int32) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        epoll_ctl(epollFD, operation, fd, &event)
    }

    /// A connection's epoll token: its descriptor in the low 32 bits and the low 32 bits of its id above them.
    ///
    /// Why not the descriptor alone: one `epoll_wait` batch can hold an event (a reset's `EPOLLHUP`) for a
    /// connection that an earlier entry of the same batch closed, and the listener's entry in between may have
    /// accepted a new connection on the same, lowest free, descriptor. Found by the descriptor alone, that stale
    /// event closed the new connection before it was answered. Ids are never reused within 2³² connections of
    /// a loop, and descriptors stay below 2³¹, so no token equals `listenerToken` or `wakeToken`.
    static func token(fd: Int32, connectionID: UInt64) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: connectionID)) << 32 | UInt64(UInt32(bitPattern: fd))
    }

    /// The connection an event's token names, or nil when the event is stale: its connection was closed and
    /// the descriptor now belongs to another one (or to none).
    static func connection(for token: UInt64, in connections: [Int32: Connection]) -> Connection? {
        let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: token))
        guard let connection = connections[fd], connection.token == token else { return nil }
        return connection
    }
}

/// Which threads are event-loop threads; lets tests prove handlers never run on one.
enum EventLoopThreads {
    private static let threads = Mutex<Set<UInt>>([])

    static func markCurrentThread() {
        _ = threads.withLock { $0.insert(UInt(pthread_self())) }
    }

    static func unmarkCurrentThread() {
        _ = threads.withLock { $0.remove(UInt(pthread_self())) }
    }

    static var isCurrentThreadAnEventLoop: Bool {
        threads.withLock { $0.contains(UInt(pthread_self())) }
    }
}
