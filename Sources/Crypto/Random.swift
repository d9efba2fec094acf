import COpenSSL
import WireFormats

/// Cryptographically secure randomness from OpenSSL's DRBG (seeded by the kernel).
public enum SecureRandom {
    /// `count` random bytes. Stops the process if the generator fails: continuing without randomness would
    /// silently mint guessable secrets.
    ///
    /// Requests of up to 128 bytes are served from a per-thread reserve of 512 bytes that one `RAND_bytes` call
    /// refills (`shim_random_bytes`). Why: each `RAND_bytes` call pays the DRBG's fixed costs (its fork check
    /// is a `getpid` system call), and a sign-up asks three times (user id, refresh token, sealing nonce), so one
    /// call now serves several requests. The bytes are the same DRBG output, handed out once and wiped from
    /// the reserve as they leave; a forked child discards the reserve it inherited.
    public static func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "negative byte count")
        precondition(count <= Int(Int32.max), "random request larger than 2 GiB")
        guard count > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: count)
        let ok = shim_random_bytes(&output, count)
        precondition(ok == 1, "RAND_bytes failed: \(OpenSSLErrorQueue.drain(fallback: "no detail"))")
        return output
    }

    /// Bytes the calling thread's reserve holds, not yet handed out (for tests).
    static var reservedByteCount: Int { shim_random_reserved_count() }

    /// A URL-safe token carrying `byteCount` random bytes (base64url, no padding), for refresh tokens and codes.
    public static func token(byteCount: Int) -> String {
        Base64URL.encode(bytes(count: byteCount))
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// `length` characters drawn uniformly from `[A-Za-z0-9]`, for identifiers that must survive any transport.
    ///
    /// Bytes at or above 248 (the largest multiple of 62 that fits a byte) are discarded, so every character is
    /// equally likely.
    public static func alphanumeric(length: Int) -> String {
        precondition(length >= 0, "negative length")
        let limit = UInt8(256 - 256 % alphabet.count)
        var characters: [UInt8] = []
        characters.reserveCapacity(length)
        while characters.count < length {
            // Ask for a little more than needed: about 3% of bytes are rejected.
            for byte in bytes(count: length - characters.count + 8) where byte < limit {
                characters.append(alphabet[Int(byte) % alphabet.count])
                if characters.count == length { break }
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
