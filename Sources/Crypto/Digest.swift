import COpenSSL
import WireFormats

/// SHA-256, for fingerprints, token hashes and the hashing inside signatures.
public enum SHA256 {
    /// The length of a SHA-256 digest in bytes.
    public static let byteCount = 32

    /// Hashes `data` in one call.
    public static func hash(_ data: [UInt8]) -> [UInt8] {
        data.withNonNullBytes { bytes, count in hash(bytes, count) }
    }

    /// Hashes the UTF-8 bytes of `text`, read in place (no copy of the text first).
    public static func hash(_ text: String) -> [UInt8] {
        guard !text.isEmpty else { return hash([UInt8]()) }
        var text = text
        return text.withUTF8 { hash($0.baseAddress!, $0.count) }
    }

    private static func hash(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> [UInt8] {
        var length: UInt32 = 0
        var ok: Int32 = 0
        let digest = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            ok = EVP_Digest(bytes, count, buffer.baseAddress, &length, Algorithms.sha256.handle, nil)
            initialized = byteCount
        }
        // SHA-256 over an in-memory buffer has no failure mode short of memory exhaustion.
        precondition(ok == 1 && length == UInt32(byteCount), "EVP_Digest(SHA256) failed")
        return digest
    }

    /// Lowercase hex of the SHA-256 of the UTF-8 bytes of `text`, the form used for stored token hashes.
    public static func hexDigest(_ text: String) -> String {
        Hex.encode(hash(text))
    }
}
