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
    let remoteAddress: String

    var phase = Phase.reading
    /// Received bytes; the current request starts at `inputStart`.
    var input: [UInt8] = []
    var inputStart = 0
    var parser = ParserState()

    var output: [UInt8] = []
    var outputSent = 0
    /// Close (after lingering) once `output` has been written.
    var closeAfterWrite = false

    /// Set from the first byte of a request until the request is complete.
    var requestStartedAt: Int64?
    /// When the connection last became idle (no request in progress).
    var idleSince: Int64
    /// A hard deadline for responding or lingering connections.
    var closeDeadline: Int64?
    /// The epoll events currently registered.
    var interest: UInt32 = 0

    /// What the response in progress needs to know about its request.
    var pendingIsHead = false
    var pendingKeepAlive = true
    var pendingIsHTTP10 = false

    init(fd: Int32, id: UInt64, remoteAddress: String, now: Int64) {
        self.fd = fd
        self.id = id
        self.remoteAddress = remoteAddress
        self.idleSince = now
    }

    var unconsumedInput: ArraySlice<UInt8> { input[inputStart...] }

    var hasPendingOutput: Bool { outputSent < output.count }

    /// Idle means a keep-alive connection waiting for a request: nothing half-read, nothing to write.
    var isIdle: Bool {
        phase == .reading && !parser.hasStartedRequest && !hasPendingOutput
    }

    /// Drops consumed bytes once they dominate the buffer, so pipelined input does not grow without bound.
    func compactInput() {
        if inputStart == input.count {
            input.removeAll(keepingCapacity: true)
            inputStart = 0
        } else if inputStart > 4096 && inputStart * 2 > input.count {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }
}
