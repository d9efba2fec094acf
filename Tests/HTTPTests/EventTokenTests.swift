import IPNetworks
import Testing
@testable import HTTP

/// An epoll event names its connection by descriptor *and* id, so that an event left over in a batch for a
/// connection closed earlier in that batch cannot act on the connection that took over the descriptor.
@Suite("Event loop: epoll tokens")
struct EventTokenTests {
    private static func connection(fd: Int32, id: UInt64) -> Connection {
        let quota = ConnectionQuota(maxConnections: 100, maxPerClient: 100, exemptions: [])
        return Connection(fd: fd, id: id, remoteAddress: "127.0.0.1", ticket: quota.admit(IPAddress("127.0.0.1"))!,
                   now: 0)
    }

    @Test("an event for a closed connection does not reach the new connection on the same descriptor")
    func staleEventIsDropped() {
        let closed = Self.connection(fd: 7, id: 41)
        let successor = Self.connection(fd: 7, id: 42)
        let live: [Int32: Connection] = [7: successor]
        #expect(EventLoop.connection(for: closed.token, in: live) == nil)
        #expect(EventLoop.connection(for: successor.token, in: live) === successor)
        #expect(EventLoop.connection(for: successor.token, in: [:]) == nil)
    }

    @Test("tokens carry the descriptor, tell connections apart and never equal the loop's own tokens")
    func tokenLayout() {
        let loopShifted = UInt64(1) << 48 | 0xFFFF_FFFF  // a second loop's ids start at 1 << 48
        for (fd, id) in [(Int32(0), UInt64(0)), (3, 1), (Int32.max, loopShifted), (12, UInt64.max)] {
            let token = EventLoop.token(fd: fd, connectionID: id)
            #expect(Int32(bitPattern: UInt32(truncatingIfNeeded: token)) == fd)
            #expect(token != EventLoop.listenerToken && token != EventLoop.wakeToken)
        }
        #expect(EventLoop.token(fd: 5, connectionID: 1) != EventLoop.token(fd: 5, connectionID: 2))
    }
}
