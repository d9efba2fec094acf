import CLinux
import Glibc
import IPNetworks

/// A nonblocking listening socket with SO_REUSEPORT, so every event loop can own one on the same port and
/// the kernel spreads incoming connections across them.
///
/// SO_REUSEPORT also lets any other socket of the same user with that option join the port, silently:
/// a second gateway (a stale one, a typo in a unit file) would get half the clients and its own database.
/// So `checkAvailable` first binds the address once without SO_REUSEPORT; the kernel refuses that while
/// anything listens there (a wildcard listener on the same port included), and the server refuses to start.
/// With port 0 there is nothing to check: the kernel picks a port no listener holds.
struct Listener {
    let fd: Int32
    let port: Int

    static func bind(host: String, port: Int, backlog: Int32 = 1024) throws(HTTPServerError) -> Listener {
        let address = try SocketAddress(host: host, port: port)
        let fd = try openSocket(address)
        do throws(HTTPServerError) {
            try setOption(fd, SOL_SOCKET, SO_REUSEADDR, "SO_REUSEADDR")
            try setOption(fd, SOL_SOCKET, SO_REUSEPORT, "SO_REUSEPORT")
            try bind(fd, to: address, host: host, port: port)
            guard listen(fd, backlog) == 0 else { throw .systemCallFailed(operation: "listen", code: errno) }
            return Listener(fd: fd, port: try boundPort(fd))
        } catch {
            close(fd)
            throw error
        }
    }

    /// Throws `addressInUse` when a socket already listens on `host:port`. The probe keeps SO_REUSEADDR, so
    /// connections of an earlier run still in TIME_WAIT do not count as "in use".
    static func checkAvailable(host: String, port: Int) throws(HTTPServerError) {
        guard port != 0 else { return }
        let address = try SocketAddress(host: host, port: port)
        let fd = try openSocket(address)
        defer { close(fd) }
        try setOption(fd, SOL_SOCKET, SO_REUSEADDR, "SO_REUSEADDR")
        try bind(fd, to: address, host: host, port: port)
    }

    private static func openSocket(_ address: SocketAddress) throws(HTTPServerError) -> Int32 {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                            | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .systemCallFailed(operation: "socket", code: errno) }
        return fd
    }

    private static func bind(_ fd: Int32, to address: SocketAddress, host: String,
                             port: Int) throws(HTTPServerError) {
        let bound = address.withSockaddr { pointer, length in Glibc.bind(fd, pointer, length) }
        guard bound == 0 else {
            if errno == EADDRINUSE { throw .addressInUse(host: host, port: port) }
            throw .systemCallFailed(operation: "bind", code: errno)
        }
    }

    private static func setOption(_ fd: Int32, _ level: Int32, _ option: Int32,
                                  _ name: String) throws(HTTPServerError) {
        var enabled: Int32 = 1
        guard setsockopt(fd, level, option, &enabled, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw .systemCallFailed(operation: "setsockopt(\(name))", code: errno)
        }
    }

    /// Reads the port back, which matters when port 0 asked the kernel to choose.
    private static func boundPort(_ fd: Int32) throws(HTTPServerError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw .systemCallFailed(operation: "getsockname", code: errno) }
        return SocketAddress.port(of: storage)
    }
}

/// An IPv4 or IPv6 socket address built from numeric text.
struct SocketAddress {
    private var storage = sockaddr_storage()
    private(set) var family: Int32 = 0
    private var length: socklen_t = 0

    init(host: String, port: Int) throws(HTTPServerError) {
        let text = host == "localhost" ? "127.0.0.1" : host
        guard (0...65535).contains(port) else { throw .invalidAddress("\(host):\(port)") }
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, text, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(port).bigEndian
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: v4) { target.copyMemory(from: $0) }
            }
        } else if inet_pton(AF_INET6, text, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(port).bigEndian
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: v6) { target.copyMemory(from: $0) }
            }
        } else {
            throw .invalidAddress(host)
        }
    }

    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// "127.0.0.1:9099" or "[::1]:9099", for messages.
    static func text(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    static func port(of storage: sockaddr_storage) -> Int {
        withUnsafeBytes(of: storage) { raw in
            if Int32(storage.ss_family) == AF_INET6 {
                return Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
            }
            return Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
        }
    }

    /// The peer's address as bytes, or nil for a family other than IPv4 and IPv6.
    static func ipAddress(of storage: sockaddr_storage) -> IPAddress? {
        withUnsafeBytes(of: storage) { raw in
            switch Int32(storage.ss_family) {
            case AF_INET6:
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                return IPAddress(bytes: withUnsafeBytes(of: &address) { Array($0) })
            case AF_INET:
                var address = raw.load(as: sockaddr_in.self).sin_addr
                return IPAddress(bytes: withUnsafeBytes(of: &address) { Array($0) })
            default:
                return nil
            }
        }
    }

    /// The numeric host of a peer address, e.g. "127.0.0.1" or "::1".
    static func hostText(of storage: sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        withUnsafeBytes(of: storage) { raw in
            if Int32(storage.ss_family) == AF_INET6 {
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                _ = inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
            } else {
                var address = raw.load(as: sockaddr_in.self).sin_addr
                _ = inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
            }
        }
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
