import COpenSSL

/// HMAC-SHA256 (RFC 2104), for keyed integrity checks such as signed cookies and OOB codes.
public enum HMACSHA256 {
    /// Computes the 32-byte tag of `message` under `key`. Keys of any length are accepted; keys longer than the
    /// 64-byte block are hashed first, as the RFC requires.
    public static func authenticate(key: [UInt8], message: [UInt8]) -> [UInt8] {
        precondition(key.count <= Int(Int32.max), "HMAC key longer than 2 GiB")
        var tag = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        let result = key.withNonNullBytes { keyBytes, keyCount in
            message.withNonNullBytes { messageBytes, messageCount in
                HMAC(Algorithms.sha256.handle, keyBytes, Int32(clamping: keyCount), messageBytes, messageCount,
                     &tag, &length)
            }
        }
        precondition(result != nil && length == UInt32(SHA256.byteCount), "HMAC(SHA256) failed")
        return tag
    }
}
