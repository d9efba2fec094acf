import COpenSSL
import Synchronization

/// `EVP_CIPHER_CTX`s that already hold one AES-256-GCM key, each reused for one message at a time.
///
/// Why: every refresh token is sealed when a session starts and opened on every refresh. Building a context for
/// each (allocate, fetch the cipher's provider data, expand the key, set up GHASH) cost as much as the encryption
/// of the token itself. A context keyed once only needs its nonce set per message
/// (`EVP_CipherInit_ex2` with no cipher and no key keeps both), as `RSAContextPool` keeps signing contexts.
final class GCMContextPool: @unchecked Sendable {
    /// Contexts kept for reuse per direction; one per thread that seals concurrently is enough.
    private static let maximumIdle = 16

    private let key: [UInt8]
    /// Opaque `EVP_CIPHER_CTX *` values as bit patterns, for encryption and for decryption.
    private let idle = Mutex<(sealing: [UInt], opening: [UInt])>(([], []))

    init(key: [UInt8]) {
        self.key = key
    }

    deinit {
        let (sealing, opening) = idle.withLock { $0 }
        for bits in sealing + opening {
            EVP_CIPHER_CTX_free(OpaquePointer(bitPattern: bits))
        }
    }

    /// Runs `body` with a context set up to encrypt (`sealing`) or decrypt under the key with `nonce`, used by no
    /// other thread meanwhile. A context whose operation failed is freed, not returned to the pool.
    func withContext<T>(sealing: Bool, nonce: [UInt8], _ body: (OpaquePointer) throws -> T) throws -> T {
        let context = try checkOut(sealing: sealing)
        guard EVP_CipherInit_ex2(context, nil, nil, nonce, sealing ? 1 : 0, nil) == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw OpenSSLErrorQueue.error("EVP_CipherInit_ex2 (nonce)")
        }
        let result: T
        do {
            result = try body(context)
        } catch {
            EVP_CIPHER_CTX_free(context)
            throw error
        }
        checkIn(context, sealing: sealing)
        return result
    }

    private func checkOut(sealing: Bool) throws -> OpaquePointer {
        let reused = idle.withLock { lists in sealing ? lists.sealing.popLast() : lists.opening.popLast() }
        if let reused, let context = OpaquePointer(bitPattern: reused) { return context }
        guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLErrorQueue.error("EVP_CIPHER_CTX_new") }
        guard EVP_CipherInit_ex2(context, Algorithms.aes256GCM.handle, key, nil, sealing ? 1 : 0, nil) == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw OpenSSLErrorQueue.error("EVP_CipherInit_ex2")
        }
        return context
    }

    private func checkIn(_ context: OpaquePointer, sealing: Bool) {
        let bits = UInt(bitPattern: context)
        let kept = idle.withLock { lists -> Bool in
            if sealing {
                guard lists.sealing.count < Self.maximumIdle else { return false }
                lists.sealing.append(bits)
            } else {
                guard lists.opening.count < Self.maximumIdle else { return false }
                lists.opening.append(bits)
            }
            return true
        }
        if !kept { EVP_CIPHER_CTX_free(context) }
    }
}
