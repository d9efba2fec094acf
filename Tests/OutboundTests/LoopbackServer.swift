import Foundation
import Glibc
import Synchronization

/// A request as the loopback server received it.
struct ReceivedRequest: Sendable {
    var method: String
    var target: String
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
}

/// What the loopback server does with a request.
enum ServerReply: Sendable {
    /// A keep-alive response with Content-Length.
    case respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
    /// A response without Content-Length whose body ends when the server closes the connection.
    case bodyUntilClose(body: [UInt8])
    /// Read the request and never answer; the connection stays open until the client gives up.
    case silence
}

/// A deliberately tiny blocking HTTP/1.1 server on 127.0.0.1 for tests: one thread per connection,
/// Content-Length bodies only. It exists so the client is tested against real sockets without depending on
/// the gateway's own HTTP module.
final class LoopbackServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let reply: @Sendable (ReceivedRequest) -> ServerReply
    private let received = Mutex<[ReceivedRequest]>([])
    private let accepted = Atomic<Int>(0)

    init(reply: @escaping @Sendable (ReceivedRequest) -> ServerReply) throws {
        let (fd, port) = try bindLoopback(listening: true)
        self.listener = fd
        self.port = port
        self.reply = reply
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting; the accept thread holds the server until then. Open connections end when clients close.
    /// The accept thread closes the listener itself, so its descriptor number cannot be reused by another
    /// test's socket while that thread might still call `accept` on it.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    var requests: [ReceivedRequest] { received.withLock { $0 } }
    var connectionCount: Int { accepted.load(ordering: .relaxed) }
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                close(listener)
                return
            }
            accepted.add(1, ordering: .relaxed)
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var buffer: [UInt8] = []
        while let request = readRequest(client, &buffer) {
            received.withLock { $0.append(request) }
            switch reply(request) {
            case let .respond(status, headers, body):
                let head = ["HTTP/1.1 \(status) Canned", "Content-Length: \(body.count)"]
                    + headers.map { "\($0.0): \($0.1)" }
                guard write(client, Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body) else { return }
            case let .bodyUntilClose(body):
                _ = write(client, Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + body)
                return
            case .silence:
                while recvSome(client) != nil {}
                return
            }
        }
    }

    private func readRequest(_ client: Int32, _ buffer: inout [UInt8]) -> ReceivedRequest? {
        let blank: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while true {
            headEnd = buffer.indices.dropLast(3).first { Array(buffer[$0..<$0 + 4]) == blank }
            if headEnd != nil { break }
            guard let more = recvSome(client) else { return nil }
            buffer += more
        }
        let lines = String(decoding: buffer[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        buffer.removeFirst(headEnd! + 4)
        var request = ReceivedRequest(method: String(requestLine[0]), target: String(requestLine[1]),
                                      headers: headers, body: [])
        let length = Int(request.header("Content-Length") ?? "0") ?? 0
        while buffer.count < length {
            guard let more = recvSome(client) else { return nil }
            buffer += more
        }
        request.body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return request
    }

    private func recvSome(_ client: Int32) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(chunk[..<count]) : nil
    }

    private func write(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }
}

struct SocketSetupFailed: Error {}

/// A TCP socket bound to an ephemeral 127.0.0.1 port. When not listening, connecting to it is refused,
/// which gives a port that is reliably closed for as long as the socket stays open.
func bindLoopback(listening: Bool) throws -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketSetupFailed() }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && (!listening || listen(fd, 64) == 0) && getsockname(fd, $0, &length) == 0
        }
    }
    guard ok else { close(fd); throw SocketSetupFailed() }
    return (fd, UInt16(bigEndian: address.sin_port))
}
