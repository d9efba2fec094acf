import Synchronization
import Testing
@testable import HTTP

/// A latch a test opens to let a waiting handler finish, so ordering is decided by the test, not by timing.
final class Gate: Sendable {
    private let isOpen = Mutex(false)

    func open() { isOpen.withLock { $0 = true } }

    /// Waits until opened (bounded at 10 s so a broken server fails the test instead of hanging it).
    func wait() async {
        for _ in 0..<5000 where !isOpen.withLock({ $0 }) {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// An ordered, thread-safe log of handler events.
final class EventLog: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }

    /// Waits (bounded) until `entry` has been recorded.
    func waitFor(_ entry: String) async {
        for _ in 0..<1000 where !all.contains(entry) {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

@Suite("Server: handlers run off the event loops")
struct ServerConcurrencyTests {
    @Test("a handler still working on one connection does not delay another connection on the same loop")
    func slowHandlerDoesNotBlock() async throws {
        let log = EventLog()
        let gate = Gate()
        let handler: HTTPHandler = { request in
            if EventLoopThreads.isCurrentThreadAnEventLoop { log.record("ran on a loop thread") }
            if request.path == "/slow" {
                log.record("slow started")
                await gate.wait()
                log.record("slow finished")
            } else {
                log.record("fast finished")
            }
            return HTTPResponse(status: 200, body: Array(request.path.utf8))
        }
        try await withTestServer({ $0.eventLoopCount = 1 }, handler: handler) { _, port in
            let slow = try RawClient(port: port)
            try await slow.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
            await log.waitFor("slow started")
            let fast = try RawClient(port: port)
            #expect(try await fast.roundTrip("GET /fast HTTP/1.1\r\nHost: t\r\n\r\n").bodyText == "/fast")
            log.record("fast answered")
            gate.open()
            #expect(try await slow.readResponse().bodyText == "/slow")
            #expect(log.all == ["slow started", "fast finished", "fast answered", "slow finished"])
        }
    }
}
