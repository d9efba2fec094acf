/// Why the server could not start.
public enum HTTPServerError: Error, Sendable, Equatable {
    /// `host` is not a numeric IPv4 or IPv6 address.
    case invalidAddress(String)
    /// A system call failed while setting up sockets or event loops; `code` is the errno value.
    case systemCallFailed(operation: String, code: Int32)
    /// `start()` was called twice, or after `shutdown`.
    case alreadyStarted
}
