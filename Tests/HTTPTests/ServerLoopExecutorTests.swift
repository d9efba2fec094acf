import Dispatch
import Synchronization
import Testing
@testable import HTTP

/// Where handler tasks run: on the loop that read the request (the default), or on the cooperative pool.
@Suite("Server: handlers on the event loops")
struct ServerLoopExecutorTests {
    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    /// Which kind of thread each step of the handler ran on, in order.
    final class Threads: Sendable {
        private let seen = Mutex<[String]>([])
        func note(_ step: String) {
            let kind = EventLoopThreads.isCurrentThreadAnEventLoop ? "loop" : "pool"
            seen.withLock { $0.append("\(step):\(kind)") }
        }
        var all: [String] { seen.withLock { $0 } }
    }

    @Test("a handler starts on its loop's thread and comes back to it after work on another thread",
          arguments: [true, false])
    func handlerThread(onLoops: Bool) async throws {
        let threads = Threads()
        let handler: HTTPHandler = { request in
            threads.note("start")
            // Resumed by another thread: the job comes back through the loop's queue.
            let answer = await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: "done") }
            }
            threads.note("after other thread")
            try? await Task.sleep(for: .milliseconds(2))
            threads.note("after sleep")
            return HTTPResponse(status: 200, body: Array(answer.utf8))
        }
        try await withTestServer({ $0.eventLoopCount = 1; $0.handlersRunOnEventLoops = onLoops },
                                 handler: handler) { _, port in
            let client = try RawClient(port: port)
            #expect(try await client.roundTrip("GET /a HTTP/1.1\r\nHost: t\r\n\r\n").bodyText == "done")
            #expect(try await client.roundTrip("GET /b HTTP/1.1\r\nHost: t\r\n\r\n").bodyText == "done")
        }
        let kind = onLoops ? "loop" : "pool"
        let steps = ["start", "after other thread", "after sleep"].map { "\($0):\(kind)" }
        #expect(threads.all == steps + steps)
    }

    @Test("a handler that keeps yielding does not keep its loop from another connection")
    func yieldingHandlerDoesNotStarveTheLoop() async throws {
        let stop = Flag()
        let log = EventLog()
        let handler: HTTPHandler = { request in
            if request.path == "/spin" {
                log.record("spinning")
                while !stop.isSet { await Task.yield() }
            }
            return HTTPResponse(status: 200, body: Array(request.path.utf8))
        }
        try await withTestServer({ $0.eventLoopCount = 1 }, handler: handler) { _, port in
            defer { stop.set() }
            let spinner = try RawClient(port: port)
            try await spinner.send("GET /spin HTTP/1.1\r\nHost: t\r\n\r\n")
            await log.waitFor("spinning")
            let other = try RawClient(port: port)
            #expect(try await other.roundTrip("GET /other HTTP/1.1\r\nHost: t\r\n\r\n").bodyText == "/other")
            stop.set()
            #expect(try await spinner.readResponse().bodyText == "/spin")
        }
    }

    @Test("a handler suspended when the loop stops still finishes, on the pool")
    func suspendedHandlerOutlivesTheLoop() async throws {
        let gate = Gate()
        let log = EventLog()
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        let server = HTTPServer(configuration: configuration) { _ in
            log.record("started")
            await gate.wait()
            log.record("finished")
            return HTTPResponse(status: 200)
        }
        let port = try server.start()
        let client = try RawClient(port: port)
        try await client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        await log.waitFor("started")
        // A short grace: the loop closes the connection and exits while the handler is still waiting.
        await server.shutdown(gracePeriod: .milliseconds(50))
        gate.open()
        await log.waitFor("finished")
        #expect(log.all == ["started", "finished"])
    }
}
