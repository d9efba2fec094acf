import COpenSSL

/// scrypt (RFC 7914), the password hash behind Firebase's password accounts.
public enum Scrypt {
    /// Without an explicit `maxMemory`, parameters needing more than this are refused rather than allocated.
    static let defaultMemoryCeiling: UInt64 = 4 << 30
    /// Slack added to the computed requirement so OpenSSL's own accounting never falls just short.
    static let headroom: UInt64 = 1 << 20

    /// Derives `length` bytes from `password` and `salt`.
    ///
    /// - Parameters:
    ///   - n: CPU/memory cost, a power of two greater than 1.
    ///   - r: block size, at least 1.
    ///   - p: parallelisation, at least 1.
    ///   - maxMemory: the memory OpenSSL may use. Defaults to what the parameters need (`128·r·(N+2) + 128·r·p`
    ///     bytes) plus 1 MiB, and is always passed explicitly: OpenSSL's own default of 32 MiB makes common
    ///     parameters such as N=32768, r=8 fail.
    public static func derive(password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, length: Int,
                              maxMemory: UInt64? = nil) throws -> [UInt8] {
        guard n > 1, n & (n - 1) == 0 else { throw CryptoError.kdfFailed("N must be a power of two greater than 1") }
        guard r >= 1, p >= 1 else { throw CryptoError.kdfFailed("r and p must be at least 1") }
        guard length >= 1 else { throw CryptoError.kdfFailed("output length must be at least 1") }
        let memory: UInt64
        if let maxMemory {
            memory = maxMemory
        } else {
            guard let required = requiredMemory(n: n, r: r, p: p), required <= defaultMemoryCeiling else {
                throw CryptoError.kdfFailed("parameters need more than \(defaultMemoryCeiling >> 20) MiB")
            }
            memory = required + headroom
        }
        var output = [UInt8](repeating: 0, count: length)
        let ok = password.withNonNullBytes { passwordBytes, passwordCount in
            salt.withNonNullBytes { saltBytes, saltCount in
                passwordBytes.withMemoryRebound(to: CChar.self, capacity: max(passwordCount, 1)) { passwordChars in
                    EVP_PBE_scrypt(passwordChars, passwordCount, saltBytes, saltCount, n, r, p, memory,
                                   &output, length)
                }
            }
        }
        guard ok == 1 else {
            throw CryptoError.kdfFailed(OpenSSLErrorQueue.drain(fallback: "EVP_PBE_scrypt refused the parameters"))
        }
        return output
    }

    /// Bytes OpenSSL's scrypt allocates: `V` is 128·r·(N+2) and `B` is 128·r·p. `nil` on overflow.
    static func requiredMemory(n: UInt64, r: UInt64, p: UInt64) -> UInt64? {
        let (blockBytes, overflow1) = r.multipliedReportingOverflow(by: 128)
        let (vectorCount, overflow2) = n.addingReportingOverflow(2)
        let (vectorBytes, overflow3) = blockBytes.multipliedReportingOverflow(by: vectorCount)
        let (bufferBytes, overflow4) = blockBytes.multipliedReportingOverflow(by: p)
        let (total, overflow5) = vectorBytes.addingReportingOverflow(bufferBytes)
        if overflow1 || overflow2 || overflow3 || overflow4 || overflow5 { return nil }
        return total
    }
}
