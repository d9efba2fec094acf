import COpenSSL
import WireFormats

/// SHA-256, for fingerprints, token hashes and the hashing inside signatures.
public enum SHA256 {
    /// The length of a SHA-256 digest in bytes.
    public static let byteCount = 32

    /// Hashes `data` in one call.
    public static func hash(_ data: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let ok = data.withNonNullBytes { bytes, count in
            EVP_Digest(bytes, count, &digest, &length, Algorithms.sha256.handle, nil)
        }
        // SHA-256 over an in-memory buffer has no failure mode short of memory exhaustion.
        precondition(ok == 1 && length == UInt32(byteCount), "EVP_Digest(SHA256) failed")
        return digest
    }

    /// Hashes the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> [UInt8] {
        hash(Array(text.utf8))
    }

    /// Lowercase hex of the SHA-256 of the UTF-8 bytes of `text`, the form used for stored token hashes.
    public static func hexDigest(_ text: String) -> String {
        Hex.encode(hash(text))
    }
}
