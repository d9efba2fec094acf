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
        // Built as bytes in one buffer: every request logs a line, and interpolating Strings piece by piece cost
        // several allocations per field.
        var line: [UInt8] = []
        line.reserveCapacity(320)
        line.append(contentsOf: #"{"ts":""#.utf8)
        RFC3339.append(milliseconds: Int64(Date().timeIntervalSince1970 * 1000), to: &line)
        line.append(contentsOf: #"","level":""#.utf8)
        line.append(contentsOf: level.rawValue.utf8)
        line.append(contentsOf: #"","msg":"#.utf8)
        message.withUTF8Buffer { JSONSerializer.appendString(String(decoding: $0, as: UTF8.self), to: &line) }
        for (key, value) in metadata {
            line.append(0x2C)
            JSONSerializer.appendString(key, to: &line)
            line.append(0x3A)
            value.append(to: &line)
        }
        line.append(contentsOf: "}\n".utf8)
        sink.write(line)
    }

    public func info(_ message: StaticString, _ metadata: Metadata = []) { log(.info, message, metadata) }
    public func warning(_ message: StaticString, _ metadata: Metadata = []) { log(.warning, message, metadata) }
    public func error(_ message: StaticString, _ metadata: Metadata = []) { log(.error, message, metadata) }
    public func debug(_ message: StaticString, _ metadata: Metadata = []) { log(.debug, message, metadata) }
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
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value's JSON text to a log line.
    func append(to out: inout [UInt8]) {
        switch self {
        case .string(let s): JSONSerializer.appendString(s, to: &out)
        case .int(let i): JSONSerializer.appendInteger(i, to: &out)
        case .double(let d):
            // Three decimals without String(format:), which is slow on Linux.
            guard d.isFinite, abs(d) < 1e12 else {
                out.append(contentsOf: "null".utf8)
                return
            }
            let thousandths = Int64((d * 1000).rounded())
            if thousandths < 0 { out.append(0x2D) }
            let magnitude = abs(thousandths)
            JSONSerializer.appendInteger(magnitude / 1000, to: &out)
            out.append(0x2E)
            let fraction = magnitude % 1000
            out.append(UInt8(fraction / 100) + 0x30)
            out.append(UInt8(fraction / 10 % 10) + 0x30)
            out.append(UInt8(fraction % 10) + 0x30)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        }
    }
}

/// Where log lines go.
public protocol LogSink: Sendable {
    /// One whole line: its UTF-8 bytes, ending in a newline. Bytes, because that is what the logger builds and
    /// what `write(2)` takes: a `String` in between was one more copy and a UTF-8 validation per request.
    func write(_ line: [UInt8])
}

/// Writes whole lines to file descriptor 1 under a lock, so concurrent lines never interleave and nothing
/// waits in a stdio buffer when stdout is a pipe.
public struct StandardOutputSink: LogSink {
    private static let lock = Mutex(())
    public init() {}
    public func write(_ line: [UInt8]) {
        Self.lock.withLock { _ in
            line.withUnsafeBufferPointer { bytes in
                guard let start = bytes.baseAddress else { return }
                var offset = 0
                while offset < bytes.count {
                    let written = Foundation.write(1, start + offset, bytes.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
    }
}

/// Keeps lines in memory (tests assert what was logged, e.g. that no secret ever is).
public final class MemoryLogSink: LogSink {
    private let lines = Mutex<[String]>([])
    public init() {}
    public func write(_ line: [UInt8]) { lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } }
    public var contents: [String] { lines.withLock { $0 } }
}
