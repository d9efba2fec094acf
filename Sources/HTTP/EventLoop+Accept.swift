import CLinux
import Glibc
import Synchronization

extension EventLoop {
    /// Accepts until the backlog is empty. A connection the quota refuses (beyond `maxConnections`, or beyond
    /// `maxConnectionsPerClient` from its client) is accepted and closed at once, so the client sees a prompt
    /// close instead of waiting in the kernel backlog.
    func acceptConnections() {
        guard let listener else { return }
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { shim_accept4_nb(listener.fd, $0, &length) }
            }
            guard fd >= 0 else {
                if errno == EMFILE || errno == ENFILE { pauseAccepting() }
                return
            }
            guard !isDraining, let ticket = context.quota.admit(SocketAddress.ipAddress(of: storage)) else {
                close(fd)
                continue
            }
            var enabled: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, socklen_t(MemoryLayout<Int32>.size))
            nextConnectionID += 1
            let now = MonotonicClock.nowMilliseconds()
            let connection = Connection(fd: fd, id: nextConnectionID, remoteAddress: SocketAddress.hostText(of: storage),
                                        ticket: ticket, now: now)
            connections[fd] = connection
            setInterest(connection, EPOLLIN.rawValue, adding: true)
        }
    }

    /// Out of descriptors: a level-triggered listener would wake the loop in a busy spin, so it is taken
    /// out of the epoll set until the next timer tick.
    private func pauseAccepting() {
        guard let listener, !isAcceptPaused else { return }
        isAcceptPaused = true
        register(fd: listener.fd, token: Self.listenerToken, events: 0, operation: EPOLL_CTL_MOD)
    }

    func resumeAcceptingIfPaused() {
        guard let listener, isAcceptPaused else { return }
        isAcceptPaused = false
        register(fd: listener.fd, token: Self.listenerToken, events: EPOLLIN.rawValue, operation: EPOLL_CTL_MOD)
    }

    /// Registers `events` for the connection unless they are registered already. Only the loop thread changes a
    /// connection's events, so `interest` is what the kernel holds.
    func setInterest(_ connection: Connection, _ events: UInt32, adding: Bool = false) {
        guard adding || connection.interest != events else { return }
        connection.interest = events
        interestChanges.store(interestChanges.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        register(fd: connection.fd, token: connection.token, events: events,
                 operation: adding ? EPOLL_CTL_ADD : EPOLL_CTL_MOD)
    }

    /// Closes at once; a handler still holding the right to answer loses it first (a write in progress is
    /// waited for), so nothing is written to the descriptor after it is closed and perhaps reused.
    func closeConnection(_ connection: Connection) {
        guard connections[connection.fd] === connection else { return }
        if connection.phase == .handling { _ = connection.handoff.revoke() }
        connections.removeValue(forKey: connection.fd)
        epoll_ctl(epollFD, EPOLL_CTL_DEL, connection.fd, nil)
        close(connection.fd)
        context.quota.release(connection.ticket)
    }
}
