import COpenSSL

/// Helpers for OpenSSL's thread-local error queue.
///
/// Every failed call leaves entries in the queue; they must be drained on the failing thread or they leak into
/// the next unrelated error report on that thread.
enum OpenSSLErrorQueue {
    /// Drains the queue and returns its entries joined into one line (or `fallback` when the queue is empty).
    static func drain(fallback: String) -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let length = buffer.firstIndex(of: 0) ?? buffer.count
            messages.append(String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? fallback : messages.joined(separator: "; ")
    }

    /// Drains the queue into a `CryptoError.openssl` describing `operation`.
    static func error(_ operation: String) -> CryptoError {
        .openssl("\(operation): \(drain(fallback: "no detail"))")
    }

    /// Discards queued errors after an expected failure (a signature that does not verify, a PEM that does not parse).
    static func clear() {
        ERR_clear_error()
    }
}
