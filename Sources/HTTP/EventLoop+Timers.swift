extension EventLoop {
    /// How long, once draining began, a half-received request may still complete.
    static let drainGraceMilliseconds: Int64 = 1000

    /// Runs every `timerInterval` ms: a linear pass is cheap next to the I/O for a loop's share of
    /// connections, and it needs no per-event bookkeeping.
    ///
    /// - A request still incomplete after `requestDeadline` gets 408 and is closed if nothing of its answer
    ///   was sent yet (a `100 Continue` counts as sent), otherwise it is simply closed. A new connection's
    ///   first request is timed from the accept, so a connection that never sends a byte is closed (without
    ///   an answer: there is no request to answer) instead of holding its slot until the idle timeout.
    /// - A keep-alive connection idle for `idleTimeout` is closed; during shutdown, idle ones close at once.
    /// - Near the connection cap, idle keep-alive connections close, longest idle first, until the count is
    ///   below the threshold again (see `shedIdleKeepAlive`).
    /// - A responding or lingering connection past its `closeDeadline` (a peer that stopped reading) is closed.
    func checkTimers(now: Int64) {
        for connection in Array(connections.values) {
            switch connection.phase {
            case .reading:
                if let started = connection.requestStartedAt, now - started >= context.requestDeadline {
                    if !connection.parser.hasStartedRequest || connection.parser.hasAcknowledgedContinue {
                        closeConnection(connection)
                    } else {
                        sendErrorAndClose(connection, status: 408, reason: "request was not completed in time")
                    }
                } else if isDraining, connection.parser.hasStartedRequest,
                          now - drainStartedAt >= Self.drainGraceMilliseconds {
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
                // An answer the handler's thread wrote is taken in here at the latest, so the idle timeout and
                // shedding apply to the connection even when its client sends nothing more.
                if connection.handoff.collect(watching: false) == .answered { adoptDirectAnswer(connection) }
            }
        }
        if context.quota.isNearCap { shedIdleKeepAlive() }
    }

    /// Slots are about to run out: an idle keep-alive connection is the cheapest to give up (its client
    /// reconnects when it has something to send), cheaper than refusing a new client or cutting a request.
    /// Connections yet to send their first request are left to the request deadline.
    private func shedIdleKeepAlive() {
        let candidates = connections.values.filter(\.isIdleKeepAlive)
            .sorted { ($0.idleSince, $0.id) < ($1.idleSince, $1.id) }
        for connection in candidates {
            guard context.quota.isNearCap else { return }
            closeConnection(connection)
        }
    }
}
