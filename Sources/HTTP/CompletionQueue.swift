import CLinux
import Glibc
import Synchronization

/// Work handed to an event loop from other threads.
enum LoopMessage: Sendable {
    /// A handler finished; `connectionID` tells a live connection from a reused file descriptor.
    case response(fd: Int32, connectionID: UInt64, HTTPResponse)
    /// A handler's thread sent the first `sent` bytes of a keep-alive response itself before the socket buffer
    /// filled (see `ResponseHandoff`); the loop writes the rest.
    case rest(fd: Int32, connectionID: UInt64, bytes: [UInt8], sent: Int)
    /// A handler's thread finished writing a response the loop was waiting on (see `ResponseHandoff.collect`).
    case answered(fd: Int32, connectionID: UInt64)
    /// Stop accepting, close idle connections, close the others after their response.
    case beginShutdown
    /// Close every connection now and leave the loop.
    case stop
}

/// A mutex-protected inbox plus an eventfd that wakes the loop's `epoll_wait` when something arrives.
///
/// The eventfd is written and read outside the lock: a write wakes the loop thread, which then wants the lock
/// to take the messages, and holding the lock across either system call made the two threads wait on each
/// other. A descriptor number is never written after the loop closed it: a poster registers itself under the
/// lock before writing, and `close()` leaves the descriptor to the last registered poster to close.
final class CompletionQueue: Sendable {
    private struct Inbox {
        var messages: [LoopMessage] = []
        var isClosed = false
        /// Posters between registering and finishing their eventfd write.
        var writers = 0
        /// The closed descriptor still awaits its last writer.
        var closeDeferred = false
    }

    let eventFD: Int32
    private let inbox = Mutex(Inbox())

    init() throws(HTTPServerError) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw .systemCallFailed(operation: "eventfd", code: errno) }
        eventFD = fd
    }

    /// Queues a message and wakes the loop; returns false when the loop is gone.
    @discardableResult
    func post(_ message: LoopMessage) -> Bool {
        let (accepted, mustWake) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.isClosed else { return (false, false) }
            let wasEmpty = inbox.messages.isEmpty
            inbox.messages.append(message)
            if wasEmpty { inbox.writers += 1 }
            return (true, wasEmpty)
        }
        guard mustWake else { return accepted }
        var one: UInt64 = 1
        _ = write(eventFD, &one, MemoryLayout<UInt64>.size)
        let closesNow = inbox.withLock { inbox -> Bool in
            inbox.writers -= 1
            return inbox.closeDeferred && inbox.writers == 0
        }
        if closesNow { _ = Glibc.close(eventFD) }
        return true
    }

    /// Called on the loop thread when the eventfd is readable: resets the counter and takes the messages. A post
    /// racing with it either lands in this batch or wakes the loop again; neither loses a message.
    func drain() -> [LoopMessage] {
        var counter: UInt64 = 0
        _ = read(eventFD, &counter, MemoryLayout<UInt64>.size)
        return inbox.withLock { inbox in
            let taken = inbox.messages
            inbox.messages = []
            return taken
        }
    }

    /// Refuses further posts and closes the eventfd (or leaves that to a poster still writing to it); called
    /// once by the loop as it exits.
    func close() {
        let closesNow = inbox.withLock { inbox -> Bool in
            inbox.isClosed = true
            inbox.messages.removeAll()
            inbox.closeDeferred = inbox.writers > 0
            return inbox.writers == 0
        }
        if closesNow { _ = Glibc.close(eventFD) }
    }
}
