import CLinux
import Glibc
import Testing
@testable import HTTP

/// The loop threads run under the configured kernel policy (`EventLoopScheduling`): by default `SCHED_BATCH`,
/// so that a loop woken by a request does not preempt the thread signing the previous one.
@Suite("Server: event-loop threads' scheduling policy")
struct ServerSchedulingTests {
    /// The kernel policy of each loop thread of `server`, once every loop has started.
    private func loopPolicies(_ server: HTTPServer) async throws -> [Int32] {
        for _ in 0..<500 where server.loopThreadIDs.contains(0) {
            try await Task.sleep(for: .milliseconds(2))
        }
        let ids = server.loopThreadIDs
        #expect(ids.count == 2 && !ids.contains(0))
        return ids.map { sched_getscheduler($0) }
    }

    @Test("by default every loop thread is SCHED_BATCH, and still serves requests")
    func batchByDefault() async throws {
        #expect(HTTPServerConfiguration().eventLoopScheduling == .batch)
        try await withTestServer { server, port in
            #expect(try await loopPolicies(server) == [shim_sched_batch, shim_sched_batch])
            let client = try RawClient(port: port)
            #expect(try await client.roundTrip("GET /a HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        }
    }

    @Test("`normal` leaves the loop threads SCHED_OTHER")
    func normalWhenAsked() async throws {
        try await withTestServer({ $0.eventLoopScheduling = .normal }) { server, port in
            #expect(try await loopPolicies(server) == [SCHED_OTHER, SCHED_OTHER])
            let client = try RawClient(port: port)
            #expect(try await client.roundTrip("GET /a HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        }
    }
}
