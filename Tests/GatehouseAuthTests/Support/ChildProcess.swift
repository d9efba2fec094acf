import Foundation

/// A process the tests start, with its output in files, stopped with SIGTERM (then SIGKILL) and never left behind.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    let stdoutFile: URL
    let stderrFile: URL

    /// Starts `executable` with `arguments`; the environment is the test's without `GATEHOUSE_*`, plus `environment`.
    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], workDirectory: URL, name: String,
         standardInput: Pipe? = nil, standardOutput: Pipe? = nil) throws {
        stdoutFile = workDirectory.appendingPathComponent("\(name).stdout.log")
        stderrFile = workDirectory.appendingPathComponent("\(name).stderr.log")
        _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = workDirectory
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GATEHOUSE_") }
        env.merge(environment) { $1 }
        process.environment = env
        if let standardInput { process.standardInput = standardInput }
        process.standardOutput = try standardOutput ?? FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// SIGTERM, then waits up to `timeout` seconds (SIGKILL after that); returns the exit status. The time is long
    /// because this task may wait for a thread on a loaded machine; a process that exits sooner is seen sooner.
    @discardableResult
    func stop(timeout: TimeInterval = 120) async -> Int32 {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return -9
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Waits for the process to exit by itself, up to `timeout` seconds.
    func wait(timeout: TimeInterval) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else {
            await stop()
            throw TestSetupError("\(process.executableURL?.lastPathComponent ?? "process") did not exit within \(timeout) s")
        }
        return process.terminationStatus
    }
}
