import COpenSSL

/// Compares two byte strings in time that depends only on their lengths, never on where they first differ.
///
/// Use it for every comparison of a secret or a MAC against attacker-supplied bytes. Different lengths return
/// `false` at once: lengths of tags and hashes are public.
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withNonNullBytes { left, count in
        b.withNonNullBytes { right, _ in
            CRYPTO_memcmp(left, right, count) == 0
        }
    }
}
