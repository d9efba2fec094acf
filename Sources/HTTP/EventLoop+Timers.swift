extension EventLoop {
    /// Runs every `timerInterval` ms: a linear pass is cheap next to the I/O for a loop's share of
    /// connections, and it needs no per-event bookkeeping.
    ///
    /// - A request still incomplete after `requestDeadline` gets 408 and is closed if nothing of its answer
    ///   was sent yet (a `100 Continue` counts as sent), otherwise it is simply closed.
    /// - A keep-alive connection idle for `idleTimeout` is closed; during shutdown, idle ones close at once.
    /// - A responding or lingering connection past its `closeDeadline` (a peer that stopped reading) is closed.
    /// How long, once draining began, a half-received request may still complete.
    static let drainGraceMilliseconds: Int64 = 1000

    func checkTimers(now: Int64) {
        for connection in Array(connections.values) {
            switch connection.phase {
            case .reading:
                if let started = connection.requestStartedAt, now - started >= context.requestDeadline {
                    if connection.parser.hasAcknowledgedContinue {
                        closeConnection(connection)
                    } else {
                        sendErrorAndClose(connection, status: 408, reason: "request was not completed in time")
                    }
                } else if isDraining, connection.requestStartedAt != nil, now - drainStartedAt >= Self.drainGraceMilliseconds {
                    // Shutting down: a request still arriving a second after the drain began will not be served.
                    sendErrorAndClose(connection, status: 503, reason: "the server is shutting down")
                } else if connection.isIdle && (isDraining || now - connection.idleSince >= context.idleTimeout) {
                    closeConnection(connection)
                }
            case .responding, .lingering:
                if let deadline = connection.closeDeadline, now >= deadline {
                    closeConnection(connection)
                }
            case .handling:
                break
            }
        }
    }
}
