import Foundation
import Glibc

/// A response as read off the wire by `RawClient`.
struct RawResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var bodyText: String { String(decoding: body, as: UTF8.self) }
}

struct RawClientError: Error, CustomStringConvertible {
    var description: String
}

/// A blocking TCP client for tests: exact bytes out, responses parsed by hand.
///
/// Every call runs on a fresh thread, so blocking socket calls never occupy the cooperative thread pool
/// (or Dispatch's global pool) that the server's handler tasks need. Reads time out after `timeoutSeconds`.
final class RawClient: @unchecked Sendable {
    private var fd: Int32
    private var buffered: [UInt8] = []

    /// - Parameter source: a local IPv4 address to connect from (another loopback address such as
    ///   127.0.0.2 is another client to the server); the kernel's choice when nil.
    init(port: Int, timeoutSeconds: Int = 120, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawClientError(description: "socket failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                throw RawClientError(description: "bind to \(source) failed: errno \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw RawClientError(description: "connect failed: errno \(errno)")
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Closes with a reset (`SO_LINGER` of zero) instead of a FIN, as a client that crashes or gives up does.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
        fd = -1
    }

    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) async throws {
        try await offPool { try self.sendBlocking(bytes) }
    }

    /// Half-closes the connection: the server sees end of input after what was sent.
    func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads one response; `bodyless` for answers to HEAD. Throws on EOF or timeout before a full response.
    func readResponse(bodyless: Bool = false) async throws -> RawResponse {
        try await offPool { try self.readResponseBlocking(bodyless: bodyless) }
    }

    /// Sends then reads one response.
    func roundTrip(_ text: String, bodyless: Bool = false) async throws -> RawResponse {
        try await send(text)
        return try await readResponse(bodyless: bodyless)
    }

    /// True when the server closed the connection (EOF or reset) before the read timeout.
    func isClosedByServer() async -> Bool {
        (try? await offPool { () throws -> Bool in
            while true {
                if !self.buffered.isEmpty { self.buffered.removeAll() }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = recv(self.fd, &chunk, chunk.count, 0)
                if count == 0 { return true }
                if count < 0 { return errno == ECONNRESET }
            }
        }) ?? false
    }

    /// Everything the server sends until it closes the connection; nil when the read times out first.
    func bytesUntilClosed() async -> [UInt8]? {
        try? await offPool { () throws -> [UInt8]? in
            var received = self.buffered
            self.buffered.removeAll()
            while true {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = recv(self.fd, &chunk, chunk.count, 0)
                if count == 0 { return received }
                if count < 0 { return errno == ECONNRESET ? received : nil }
                received += chunk[0..<count]
            }
        }
    }

    private func offPool<T>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let thread = Thread {
                continuation.resume(with: Result { try work() })
            }
            thread.start()
        }
    }

    private func sendBlocking(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw RawClientError(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { throw RawClientError(description: count == 0 ? "closed" : "recv errno \(errno)") }
        buffered.append(contentsOf: chunk[0..<count])
    }

    private func readResponseBlocking(bodyless: Bool) throws -> RawResponse {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffered.indices.dropLast(3).first { Array(buffered[$0..<($0 + 4)]) == terminator }
            if headEnd == nil { try fill() }
        }
        let head = String(decoding: buffered[0..<headEnd!], as: UTF8.self)
        buffered.removeFirst(headEnd! + 4)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw RawClientError(description: "bad status line \(lines[0])")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingSpaces())
        }
        var response = RawResponse(status: status, headers: headers, body: [])
        if bodyless || status < 200 || status == 204 || status == 304 { return response }
        let length = Int(response.header("Content-Length") ?? "0") ?? 0
        while buffered.count < length { try fill() }
        response.body = Array(buffered[0..<length])
        buffered.removeFirst(length)
        return response
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
