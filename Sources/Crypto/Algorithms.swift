import COpenSSL

/// Algorithm implementations fetched once from OpenSSL's default provider.
///
/// OpenSSL 3 looks an algorithm up by name on every call that is given a legacy `EVP_sha256()`-style handle;
/// fetching once and reusing the handle avoids that per-operation cost. Fetched handles are immutable and safe to
/// share between threads.
final class FetchedAlgorithm: @unchecked Sendable {
    let handle: OpaquePointer

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    static func digest(_ name: String) -> FetchedAlgorithm {
        guard let handle = EVP_MD_fetch(nil, name, nil) else {
            fatalError("OpenSSL default provider lacks digest \(name): \(OpenSSLErrorQueue.drain(fallback: "?"))")
        }
        return FetchedAlgorithm(handle: handle)
    }

    static func cipher(_ name: String) -> FetchedAlgorithm {
        guard let handle = EVP_CIPHER_fetch(nil, name, nil) else {
            fatalError("OpenSSL default provider lacks cipher \(name): \(OpenSSLErrorQueue.drain(fallback: "?"))")
        }
        return FetchedAlgorithm(handle: handle)
    }
}

/// The handles this module uses, fetched on first use. The module never frees them: they live as long as the
/// process, like OpenSSL's own built-in tables.
enum Algorithms {
    static let sha256 = FetchedAlgorithm.digest("SHA256")
    static let aes256GCM = FetchedAlgorithm.cipher("AES-256-GCM")
    static let aes256CTR = FetchedAlgorithm.cipher("AES-256-CTR")
}

extension Array where Element == UInt8 {
    /// Calls `body` with a pointer that is never NULL, even for an empty array, and the element count.
    ///
    /// Several OpenSSL entry points read a NULL pointer as "parameter absent" even when the length is zero, so an
    /// empty input is passed as a real one-byte buffer with a count of zero.
    func withNonNullBytes<Result>(_ body: (UnsafePointer<UInt8>, Int) throws -> Result) rethrows -> Result {
        if isEmpty {
            let standIn: [UInt8] = [0]
            return try standIn.withUnsafeBufferPointer { try body($0.baseAddress!, 0) }
        }
        return try withUnsafeBufferPointer { buffer in
            // A non-empty array always has storage.
            try body(buffer.baseAddress!, buffer.count)
        }
    }
}
