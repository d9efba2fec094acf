import CLinux
import Glibc
import Synchronization

/// Who writes a connection's next response: its event loop, or the thread on which the handler finished.
///
/// Why: sending every answer through the loop cost, per request, a lock and an eventfd write on the
/// handler's thread, a wake-up of the loop thread, an extra `epoll_wait` round and an eventfd read, before the
/// loop could serialize and send. When the loop dispatches a request after which the connection simply goes
/// back to reading (keep-alive, no pipelined bytes waiting, not shutting down) it *grants* the handler's
/// thread a one-time right to answer. That thread *takes* the right, writes the whole response without
/// blocking and records the answer; the loop learns of it the next time it looks at the connection (a
/// readiness event or the timer pass) and does its bookkeeping then (`EventLoop.adoptDirectAnswer`). If the
/// client sends again while the answer is still being written, the loop marks it watched and the writer posts
/// `.answered` when done. Any case that is not that simple (a partial write, `Connection: close`, a right
/// taken back) goes through the loop exactly as before.
///
/// The descriptor stays armed for reading while a granted request is handled, and only the loop ever changes
/// what it is armed for. A client that waits for its answer sends nothing meanwhile, so no event comes; the
/// loop used to disarm the descriptor at dispatch and the handler's thread to re-arm it, two `epoll_ctl` calls
/// per request, about 3 µs of a 60-µs `accounts:lookup` (bench/REPORT.md). A client that does send (pipelined
/// bytes, or its close) wakes the loop, which then takes the right back and disarms the descriptor until the
/// answer is out (`EventLoop.connectionEvent`), so level-triggered readiness cannot repeat.
///
/// Safety rests on one rule: the loop never closes or decides about a connection while its handler may be
/// writing. Before it does, it *revokes* the right: a grant not yet taken is withdrawn (the handler then posts
/// its response as before), a write in progress is waited for (one non-blocking `send`), an answer already
/// written is taken into account. So a descriptor is never written or re-armed after the loop closed it and a
/// new connection reused its number.
final class ResponseHandoff: Sendable {
    private enum State: UInt8 {
        /// The loop writes the response (no grant, or the grant was withdrawn or given back).
        case loopWrites = 0
        /// The handler's thread may take the right to answer.
        case granted
        /// The handler's thread is sending the response.
        case writing
        /// As `writing`, and the loop has seen the client send again: the writer must wake the loop when done.
        case writingWatched
        /// The handler's thread wrote the whole response and re-armed the descriptor; the loop has yet to see it.
        case answered
    }

    /// What the loop finds when it looks for a direct answer.
    enum Collection {
        /// The whole answer is written; the loop now does the bookkeeping of a finished response.
        case answered
        /// Still being written; the writer will post `.answered` to the loop when it is done.
        case stillWriting
        /// No direct answer (not granted, or the handler is still working).
        case none
    }

    /// What the loop finds when it takes the right back.
    enum Revocation {
        /// The handler had not started writing; it will post its response to the loop.
        case withdrawn
        /// The handler already wrote the whole response.
        case answered
        /// The right was not out (never granted, or given back).
        case notGranted
    }

    /// What became of a handler's attempt to answer directly.
    enum Attempt {
        case answered
        /// Answered, and the loop is waiting to hear it: post `.answered`.
        case answeredWhileWatched
        /// No right to answer: the loop writes the response.
        case loopWrites
        /// Part of the response went out (`sent` bytes of `bytes`); the loop writes the rest.
        case partlySent(bytes: [UInt8], sent: Int)
    }

    let fd: Int32
    private let state = Atomic<UInt8>(State.loopWrites.rawValue)

    init(fd: Int32) {
        self.fd = fd
    }

    // MARK: The loop's side

    /// Called by the loop when it dispatches a request that may be answered directly.
    func grant() {
        state.store(State.granted.rawValue, ordering: .releasing)
    }

    /// Called by the loop when the response reached it through its queue: any grant is void.
    func reset() {
        state.store(State.loopWrites.rawValue, ordering: .releasing)
    }

    /// Looks for a direct answer. With `watching` (the loop saw the client send again), an answer still being
    /// written is marked so that its writer wakes the loop, rather than the loop spinning until it is done: the
    /// client often sends its next request before the writer's `send` has even returned.
    func collect(watching: Bool) -> Collection {
        while true {
            switch State(rawValue: state.load(ordering: .acquiring)) {
            case .answered:
                state.store(State.loopWrites.rawValue, ordering: .releasing)
                return .answered
            case .writing where watching:
                let (exchanged, _) = state.compareExchange(expected: State.writing.rawValue,
                                                           desired: State.writingWatched.rawValue,
                                                           ordering: .acquiringAndReleasing)
                if exchanged { return .stillWriting }
            case .writingWatched:
                return .stillWriting
            case .writing, .granted, .loopWrites, nil:
                return .none
            }
        }
    }

    /// Takes the right back before the loop closes or drains the connection; see the type's comment. Waits
    /// for a write in progress: one non-blocking `send`, and only on a close or a shutdown.
    func revoke() -> Revocation {
        while true {
            switch State(rawValue: state.load(ordering: .acquiring)) {
            case .granted:
                let (exchanged, _) = state.compareExchange(expected: State.granted.rawValue,
                                                           desired: State.loopWrites.rawValue,
                                                           ordering: .acquiringAndReleasing)
                if exchanged { return .withdrawn }
            case .writing, .writingWatched:
                sched_yield()
            case .answered:
                state.store(State.loopWrites.rawValue, ordering: .releasing)
                return .answered
            case .loopWrites, nil:
                return .notGranted
            }
        }
    }

    // MARK: The handler's side

    /// Writes `bytes()` from the calling thread if the loop granted it. `bytes` is only evaluated once the right
    /// is taken. The descriptor is left as the loop armed it (for reading).
    func answer(_ bytes: () -> [UInt8]) -> Attempt {
        let (taken, _) = state.compareExchange(expected: State.granted.rawValue, desired: State.writing.rawValue,
                                               ordering: .acquiringAndReleasing)
        guard taken else { return .loopWrites }
        let output = bytes()
        let sent = Self.sendWithoutBlocking(output, on: fd)
        guard sent == output.count else {
            // The loop writes the rest, waiting for `EPOLLOUT` if it must (which replaces `EPOLLIN`).
            state.store(State.loopWrites.rawValue, ordering: .releasing)
            return .partlySent(bytes: output, sent: sent)
        }
        let (unwatched, _) = state.compareExchange(expected: State.writing.rawValue, desired: State.answered.rawValue,
                                                   ordering: .acquiringAndReleasing)
        guard !unwatched else { return .answered }
        state.store(State.answered.rawValue, ordering: .releasing)
        return .answeredWhileWatched
    }

    /// Bytes sent before the socket buffer filled or an error stopped it (the loop's own write of the rest then
    /// waits for the buffer, or meets the same error and closes the connection).
    private static func sendWithoutBlocking(_ bytes: [UInt8], on fd: Int32) -> Int {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if result < 0 {
                if errno == EINTR { continue }
                return sent
            }
            sent += result
        }
        return sent
    }
}
