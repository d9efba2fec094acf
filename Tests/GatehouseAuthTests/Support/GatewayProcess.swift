import Foundation
import GatehouseAuth
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `gateway serve` process on a free loopback port with its own data directory and config file.
final class GatewayProcess: @unchecked Sendable {
    static let adminToken = "client-tests-admin-token-0123456789"

    let name: String
    let projectID: String
    let dataDirectory: URL
    let child: ChildProcess
    let port: Int

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var database: URL { dataDirectory.appendingPathComponent("gatehouse.sqlite") }

    /// Starts the gateway with `config` (the admin token is added) and waits until `/readyz` answers 200. The stand-in
    /// host is told its pid at once, so that it stops the gateway if this test process dies, even while it starts.
    init(name: String, projectID: String, config: [String: Any], environment: [String: String], workDirectory: URL,
         watcher: StandInHost) async throws {
        try TestPaths.require(TestPaths.gateway, "the gateway binary (swift build --product gateway, or set GATEHOUSE_BIN)")
        self.name = name
        self.projectID = projectID
        let directory = workDirectory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        dataDirectory = directory.appendingPathComponent("data")
        var full = config
        full["adminTokens"] = [Self.adminToken]
        let configFile = directory.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: full, options: [.prettyPrinted, .sortedKeys]).write(to: configFile)
        child = try ChildProcess(TestPaths.gateway, ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDirectory.path,
                                                     "--project-id", projectID, "--config", configFile.path],
                                 environment: environment, workDirectory: directory, name: "gateway")
        do {
            _ = try await watcher.call("watch", ["pid": Int(child.pid)])
        } catch {
            await child.stop()
            throw error
        }
        port = try await Self.listeningPort(of: child)
        try await waitUntilReady()
    }

    /// The port from the `listening` log line (`--port 0` lets the kernel choose, so no two tests race for one).
    private static func listeningPort(of child: ChildProcess) async throws -> Int {
        // Generous deadlines: under `swift test` every suite of the package runs at once, and on a loaded machine this
        // task has waited over two minutes for a thread while the gateway was long up. They only catch hangs.
        let deadline = Date().addingTimeInterval(600)
        while Date() < deadline {
            for line in child.stdout.split(separator: "\n") where line.contains("\"msg\":\"listening\"") {
                if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                   let port = object["port"] as? Int {
                    return port
                }
            }
            guard child.isRunning else {
                throw TestSetupError("the gateway exited before listening:\n\(child.stderr)\n\(child.stdout)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        await child.stop()
        throw TestSetupError("the gateway did not log `listening` within 600 s:\n\(child.stderr)\n\(child.stdout)")
    }

    private func waitUntilReady() async throws {
        let deadline = Date().addingTimeInterval(600)
        while Date() < deadline {
            if let (_, response) = try? await URLSessionTransport().send(URLRequest(url: url.appendingPathComponent("readyz"))),
               response.statusCode == 200 {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        await child.stop()
        throw TestSetupError("\(name): /readyz did not answer 200 within 600 s")
    }

    /// SIGTERM; the exit status (0 after a clean drain).
    func stop() async -> Int32 {
        await child.stop()
    }

    var log: String { child.stdout }
}
