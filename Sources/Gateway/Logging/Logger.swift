import AuthCore
import Foundation
import Synchronization
import WireFormats

/// Structured JSON logs, one object per line on stdout.
///
/// Messages are constants and data goes in dot-namespaced metadata (`request.id`, `http.status`), so logs can
/// be searched without parsing prose. Callers must never put tokens, passwords or keys in metadata; the
/// request logger only records the path (never the query, which carries the API key) and error codes.
public struct Logger: Sendable {
    public typealias Metadata = [(String, JSONLogValue)]

    let minimumLevel: LogLevel
    let sink: any LogSink

    public init(minimumLevel: LogLevel, sink: any LogSink = StandardOutputSink()) {
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    public func log(_ level: LogLevel, _ message: StaticString, _ metadata: Metadata = []) {
        guard level >= minimumLevel else { return }
        var line = "{\"ts\":\"\(Self.timestamp())\",\"level\":\"\(level.rawValue)\",\"msg\":\(JSONLogValue.string("\(message)").encoded)"
        for (key, value) in metadata {
            line += ",\(JSONLogValue.string(key).encoded):\(value.encoded)"
        }
        line += "}\n"
        sink.write(line)
    }

    public func info(_ message: StaticString, _ metadata: Metadata = []) { log(.info, message, metadata) }
    public func warning(_ message: StaticString, _ metadata: Metadata = []) { log(.warning, message, metadata) }
    public func error(_ message: StaticString, _ metadata: Metadata = []) { log(.error, message, metadata) }
    public func debug(_ message: StaticString, _ metadata: Metadata = []) { log(.debug, message, metadata) }

    static func timestamp() -> String { UserInfoJSON.rfc3339(Int64(Date().timeIntervalSince1970 * 1000)) }
}

/// A metadata value.
public enum JSONLogValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }

    var encoded: String {
        switch self {
        case .string(let s): return JSONSerializer.string(.string(s))
        case .int(let i): return String(i)
        case .double(let d):
            // Three decimals without String(format:), which is slow on Linux.
            guard d.isFinite, abs(d) < 1e12 else { return "null" }
            let thousandths = Int64((d * 1000).rounded())
            let sign = thousandths < 0 ? "-" : ""
            let magnitude = abs(thousandths)
            let fraction = String(magnitude % 1000)
            return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
        case .bool(let b): return b ? "true" : "false"
        }
    }
}

/// Where log lines go.
public protocol LogSink: Sendable {
    func write(_ line: String)
}

/// Writes whole lines to file descriptor 1 under a lock, so concurrent lines never interleave and nothing
/// waits in a stdio buffer when stdout is a pipe.
public struct StandardOutputSink: LogSink {
    private static let lock = Mutex(())
    public init() {}
    public func write(_ line: String) {
        Self.lock.withLock { _ in
            var bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { Foundation.write(1, $0.baseAddress! + offset, $0.count - offset) }
                if written <= 0 { break }
                offset += written
            }
        }
    }
}

/// Keeps lines in memory (tests assert what was logged, e.g. that no secret ever is).
public final class MemoryLogSink: LogSink {
    private let lines = Mutex<[String]>([])
    public init() {}
    public func write(_ line: String) { lines.withLock { $0.append(line) } }
    public var contents: [String] { lines.withLock { $0 } }
}
