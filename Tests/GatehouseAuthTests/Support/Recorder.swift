import Foundation
import Testing

/// A recorder of the stand-in host: a server that gives every request one fixed answer and keeps what it got.
struct Recorder {
    let port: Int
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    static func start(status: Int, body: String = "{}", headers: [String: String] = [:], delay: Double = 0,
                      redirectTo: URL? = nil) async throws -> Recorder {
        var arguments: [String: any Sendable] = ["status": status, "body": body, "headers": headers, "delay": delay]
        if let redirectTo { arguments["redirect_to"] = redirectTo.absoluteString }
        let port = try await ClientEnvironment.shared.standIns.call("recorder_start", arguments).raw as? Int
        return Recorder(port: try #require(port))
    }

    /// The requests received, oldest first: `method`, `path`, `body` and `headers` (lower-case names).
    func requests() async throws -> [[String: Any]] {
        try await ClientEnvironment.shared.standIns.call("recorder_requests", ["port": port]).raw as? [[String: Any]] ?? []
    }

    func stop() async throws {
        _ = try await ClientEnvironment.shared.standIns.call("recorder_stop", ["port": port])
    }
}
