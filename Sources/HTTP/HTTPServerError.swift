import Glibc

/// Why the server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `host` is not a numeric IPv4 or IPv6 address.
    case invalidAddress(String)
    /// Another socket (another process, or a second instance of this server) already listens on the address.
    /// Listeners share their port with SO_REUSEPORT, which would otherwise let a second instance bind the
    /// same port silently and have the kernel split clients between the two.
    case addressInUse(host: String, port: Int)
    /// A system call failed while setting up sockets or event loops; `code` is the errno value.
    case systemCallFailed(operation: String, code: Int32)
    /// `start()` was called twice, or after `shutdown`.
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidAddress(let host):
            return "cannot listen on \"\(host)\": not a numeric IPv4 or IPv6 address"
        case .addressInUse(let host, let port):
            return "cannot listen on \(SocketAddress.text(host: host, port: port)): the address is already in use by another process (is another gateway running?)"
        case .systemCallFailed(let operation, let code):
            return "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .alreadyStarted:
            return "the server was already started"
        }
    }
}
