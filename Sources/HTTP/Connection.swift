/// One accepted socket and everything its event loop knows about it. Confined to that loop's thread.
final class Connection {
    enum Phase {
        /// Reading (and parsing) a request.
        case reading
        /// The handler is running; input is left unread so a flood of pipelined requests cannot pile up.
        case handling
        /// Writing a response (or an error response).
        case responding
        /// Output done and write side shut; discarding input until the peer closes or the linger ends.
        case lingering
    }

    let fd: Int32
    let id: UInt64
    /// This connection's epoll token: its descriptor and its id (see `EventLoop.token(fd:connectionID:)`).
    let token: UInt64
    let remoteAddress: String
    /// The slot this connection holds in the server's connection quota.
    let ticket: ConnectionQuota.Ticket
    /// Whether the handler's thread may write the response in progress.
    let handoff: ResponseHandoff

    var phase = Phase.reading
    /// Received bytes; the current request starts at `inputStart`.
    var input: [UInt8] = []
    var inputStart = 0
    var parser = ParserState()

    var output: [UInt8] = []
    var outputSent = 0
    /// Close (after lingering) once `output` has been written.
    var closeAfterWrite = false

    /// Set from the first byte of a request until the request is complete, and for a new connection from
    /// the moment it was accepted: a connection that never sends a complete request is closed after the
    /// request deadline instead of holding a slot until the (longer) idle timeout.
    var requestStartedAt: Int64?
    /// Requests answered on this connection; an idle connection that has had one is an idle keep-alive.
    var servedRequests = 0
    /// When the connection last became idle (no request in progress).
    var idleSince: Int64
    /// A hard deadline for responding or lingering connections.
    var closeDeadline: Int64?
    /// The epoll events currently registered. Only the loop changes them (see `ResponseHandoff`).
    var interest: UInt32 = 0
    /// The loop disarmed the descriptor while the handler's thread was still writing (see
    /// `ResponseHandoff.collect`), so taking the answer in must re-arm it.
    var disarmedDuringAnswer = false

    /// What the response in progress needs to know about its request.
    var pendingIsHead = false
    var pendingKeepAlive = true
    var pendingIsHTTP10 = false

    init(fd: Int32, id: UInt64, remoteAddress: String, ticket: ConnectionQuota.Ticket, now: Int64) {
        self.fd = fd
        self.token = EventLoop.token(fd: fd, connectionID: id)
        self.handoff = ResponseHandoff(fd: fd)
        self.id = id
        self.remoteAddress = remoteAddress
        self.ticket = ticket
        self.idleSince = now
        self.requestStartedAt = now
    }

    var unconsumedInput: ArraySlice<UInt8> { input[inputStart...] }

    var hasPendingOutput: Bool { outputSent < output.count }

    /// Idle means waiting for a request: nothing half-read, nothing to write.
    var isIdle: Bool {
        phase == .reading && !parser.hasStartedRequest && !hasPendingOutput
    }

    /// An idle connection that has already been answered: the cheapest to close when slots run short.
    var isIdleKeepAlive: Bool { isIdle && servedRequests > 0 }

    /// Bytes this connection holds for the request in progress: unparsed input and the decoded body.
    var bufferedBytes: Int { input.count + parser.decodedBodyByteCount }

    /// Drops consumed bytes once they dominate the buffer, so pipelined input does not grow without bound,
    /// and gives back a large buffer once it is empty, so an idle connection does not keep the capacity its
    /// largest request needed.
    func compactInput() {
        if inputStart == input.count {
            if input.capacity > Self.retainedInputCapacity {
                input = []
            } else {
                input.removeAll(keepingCapacity: true)
            }
            inputStart = 0
        } else if inputStart > 4096 && inputStart * 2 > input.count {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }

    /// Drops input the parser has finished with while a chunked body arrives (the head and decoded chunks),
    /// so the connection holds the decoded body and at most a partial line, not the whole request twice.
    func releaseParsedInput() {
        let releasable = parser.releasableByteCount
        guard releasable >= Self.releaseThreshold else { return }
        input.removeFirst(inputStart + releasable)
        inputStart = 0
        parser.releaseBytes(releasable)
    }

    /// Below this, moving the remaining bytes costs more than the memory it frees.
    static let releaseThreshold = 4096
    /// An empty input buffer keeps at most this much capacity (one read's worth).
    static let retainedInputCapacity = 64 * 1024
}
