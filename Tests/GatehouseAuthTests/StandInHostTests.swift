import Foundation
@testable import GatehouseAuth
import Testing

/// How a call ended, or that it had not within the time allowed.
enum CallOutcome: Equatable { case returned, threw, stillWaiting }

/// Runs `call` and waits up to `timeout` seconds for it to end; a call that hangs is left behind, not waited for.
func outcome(within timeout: TimeInterval, _ call: @escaping @Sendable () async throws -> Void) async throws -> CallOutcome {
    let ended = Locked<CallOutcome?>(nil)
    Task {
        do {
            try await call()
            ended.withLock { $0 = .returned }
        } catch {
            ended.withLock { $0 = .threw }
        }
    }
    let deadline = Date().addingTimeInterval(timeout)
    while ended.current == nil && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    return ended.current ?? .stillWaiting
}

@Suite("Test support: a call to a stand-in host that is gone fails at once, never hangs or kills the test process")
struct StandInHostTests {
    @Test("calls after the host exited by itself, and after stop(), throw")
    func callsAfterExit() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-host-test-\(Unique.token())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let host = try await StandInHost(workDirectory: work)
        #expect(try await outcome(within: 120) { _ = try await host.call("apple_revoked") } == .returned)
        // The host exits without answering, as if it had crashed.
        #expect(try await outcome(within: 60) { _ = try await host.call("exit_now") } == .threw)
        try await eventually("the stand-in host to exit") { !host.isRunning }
        // Whether or not the reader has seen the pipe close yet: an error, neither a hang nor SIGPIPE.
        for _ in 0..<3 {
            #expect(try await outcome(within: 60) { _ = try await host.call("apple_revoked") } == .threw)
        }
        await host.stop()
        #expect(try await outcome(within: 60) { _ = try await host.call("apple_revoked") } == .threw)
    }
}
