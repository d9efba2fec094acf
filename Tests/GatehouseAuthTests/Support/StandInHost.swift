import Foundation
@testable import GatehouseAuth

/// The provider stand-ins (`tests/blackbox/stand_in_host.py`), one Python process spoken to in JSON lines:
/// tokens signed with the stand-ins' keys, the mail the gateway sent, nginx fronts. If this test process dies,
/// the host sees its stdin close and stops everything it started, and the gateways it was told to watch.
final class StandInHost: @unchecked Sendable {
    /// A JSON value from `JSONSerialization`, immutable once made.
    struct Value: @unchecked Sendable {
        let raw: Any?
        var string: String? { raw as? String }
        var object: [String: Any] { raw as? [String: Any] ?? [:] }
    }

    private let child: ChildProcess
    private let input = Pipe()
    private let output = Pipe()
    /// The calls waiting for their answer; `closed` once the host has exited or is being stopped, after which a
    /// call fails at once (nothing would ever answer it).
    private let pending = Locked<(waiting: [Int: CheckedContinuation<Value, any Error>], closed: Bool)>(([:], false))
    private let nextID = Locked(1)
    private var buffer = Data()

    /// The gateway config sections that point at the stand-ins, and the secrets' environment variables.
    private(set) var sections: [String: Any] = [:]
    private(set) var environment: [String: String] = [:]

    init(workDirectory: URL) async throws {
        try TestPaths.require(TestPaths.python, "the test venv's Python (run scripts/bootstrap.sh)")
        // A write to the pipe of a host that has died must fail with EPIPE, not kill the test process with SIGPIPE.
        // The processes started after this inherit the disposition: the gateways write to sockets with MSG_NOSIGNAL
        // and to log files only, so nothing changes for them (nginx is started by the host, with the default).
        signal(SIGPIPE, SIG_IGN)
        child = try ChildProcess(TestPaths.python, ["-u", TestPaths.standInHost.path], workDirectory: workDirectory, name: "stand-ins",
                                 standardInput: input, standardOutput: output)
        // The first answer (id 0) is written at once; the pipe holds it until the reader runs. A host that never gets
        // ready is stopped after ten minutes, which ends the wait with its stderr.
        let watchdog = Task { [child] in
            try await Task.sleep(for: .seconds(600))
            await child.stop()
        }
        defer { watchdog.cancel() }
        let first = try await withCheckedThrowingContinuation { continuation in
            pending.withLock { $0.waiting[0] = continuation }
            Thread { [self] in readLoop() }.start()
        }
        sections = first.object["sections"] as? [String: Any] ?? [:]
        environment = first.object["env"] as? [String: String] ?? [:]
    }

    /// Runs `command` in the host and returns its result; a failure there fails the test with its traceback.
    func call(_ command: String, _ arguments: [String: any Sendable] = [:]) async throws -> Value {
        let id = nextID.withLock { value -> Int in
            defer { value += 1 }
            return value
        }
        let line = try JSONSerialization.data(withJSONObject: ["id": id, "cmd": command, "args": arguments]) + Data("\n".utf8)
        return try await withCheckedThrowingContinuation { continuation in
            let open = pending.withLock { pending -> Bool in
                guard !pending.closed else { return false }
                pending.waiting[id] = continuation
                return true
            }
            guard open else {
                continuation.resume(throwing: TestSetupError("the stand-in host has exited (\(command)):\n\(child.stderr)"))
                return
            }
            do {
                try input.fileHandleForWriting.write(contentsOf: line)
            } catch {
                // The host died before the reader saw it go: this call is answered here, once.
                pending.withLock { $0.waiting.removeValue(forKey: id) }?
                    .resume(throwing: TestSetupError("the stand-in host is gone (\(command): \(error)):\n\(child.stderr)"))
            }
        }
    }

    func string(_ command: String, _ arguments: [String: any Sendable] = [:]) async throws -> String {
        guard let text = try await call(command, arguments).string else { throw TestSetupError("\(command) returned no string") }
        return text
    }

    /// Closes the host's stdin (it stops its stand-ins and nginx fronts) and waits for it to exit.
    func stop() async {
        pending.withLock { $0.closed = true }
        try? input.fileHandleForWriting.close()
        if (try? await child.wait(timeout: 120)) == nil { await child.stop() }
    }

    var log: String { child.stderr }
    var isRunning: Bool { child.isRunning }

    private func readLoop() {
        let handle = output.fileHandleForReading
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                deliver(Data(line))
            }
        }
        let waiting = pending.withLock { pending -> [CheckedContinuation<Value, any Error>] in
            pending.closed = true
            defer { pending.waiting.removeAll() }
            return Array(pending.waiting.values)
        }
        for continuation in waiting { continuation.resume(throwing: TestSetupError("the stand-in host exited:\n\(child.stderr)")) }
    }

    private func deliver(_ line: Data) {
        guard let message = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any], let id = message["id"] as? Int,
              let continuation = pending.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        if message["ok"] as? Bool == true {
            continuation.resume(returning: Value(raw: message["result"]))
        } else {
            continuation.resume(throwing: TestSetupError("stand-in host: \(message["error"] as? String ?? "failed")"))
        }
    }
}
