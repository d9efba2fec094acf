import CLinux
import Glibc
import Synchronization

/// Work handed to an event loop from other threads.
enum LoopMessage: Sendable {
    /// A handler finished; `connectionID` tells a live connection from a reused file descriptor.
    case response(fd: Int32, connectionID: UInt64, HTTPResponse)
    /// Stop accepting, close idle connections, close the others after their response.
    case beginShutdown
    /// Close every connection now and leave the loop.
    case stop
}

/// A mutex-protected inbox plus an eventfd that wakes the loop's `epoll_wait` when something arrives.
///
/// Posting after the loop has closed is a no-op: the closed flag is checked under the same lock that
/// guards the eventfd, so a late handler can never write to a descriptor number the process reused.
final class CompletionQueue: Sendable {
    private struct Inbox {
        var messages: [LoopMessage] = []
        var isClosed = false
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
        inbox.withLock { inbox in
            guard !inbox.isClosed else { return false }
            let wasEmpty = inbox.messages.isEmpty
            inbox.messages.append(message)
            if wasEmpty {
                var one: UInt64 = 1
                _ = write(eventFD, &one, MemoryLayout<UInt64>.size)
            }
            return true
        }
    }

    /// Called on the loop thread when the eventfd is readable: resets the counter and takes the messages.
    func drain() -> [LoopMessage] {
        inbox.withLock { inbox in
            var counter: UInt64 = 0
            _ = read(eventFD, &counter, MemoryLayout<UInt64>.size)
            defer { inbox.messages.removeAll(keepingCapacity: true) }
            return inbox.messages
        }
    }

    /// Refuses further posts and closes the eventfd; called once by the loop as it exits.
    func close() {
        inbox.withLock { inbox in
            inbox.isClosed = true
            inbox.messages.removeAll()
            _ = Glibc.close(eventFD)
        }
    }
}
