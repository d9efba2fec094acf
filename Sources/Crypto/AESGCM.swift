import COpenSSL

/// A 256-bit key for AES-GCM.
public struct SymmetricKey: Sendable {
    /// The key length in bytes.
    public static let byteCount = 32

    /// The raw key bytes, for storing wrapped or in configuration.
    public let bytes: [UInt8]
    /// Contexts keyed with `bytes`, shared by the copies of this value.
    let contexts: GCMContextPool

    /// Wraps existing key material, which must be exactly 32 bytes.
    public init(bytes: [UInt8]) throws {
        guard bytes.count == Self.byteCount else { throw CryptoError.invalidKey("AES-256 keys are 32 bytes") }
        self.bytes = bytes
        self.contexts = GCMContextPool(key: bytes)
    }

    /// A fresh random key.
    public static func generate() -> SymmetricKey {
        // The length is right by construction.
        try! SymmetricKey(bytes: SecureRandom.bytes(count: byteCount))
    }
}

/// AES-256-GCM authenticated encryption, for secrets the gateway stores (provider client secrets, MFA seeds).
///
/// The sealed box is `nonce (12 bytes) || ciphertext || tag (16 bytes)`. Nonces are random, which is safe for
/// up to about 2^32 messages per key.
public enum AESGCM {
    static let nonceByteCount = 12
    static let tagByteCount = 16

    /// Encrypts and authenticates `plaintext`, also authenticating (not encrypting) `associatedData`.
    public static func seal(_ plaintext: [UInt8], key: SymmetricKey, associatedData: [UInt8] = []) throws -> [UInt8] {
        try seal(plaintext, key: key, nonce: SecureRandom.bytes(count: nonceByteCount), associatedData: associatedData)
    }

    /// Decrypts a box made by `seal`. Any change to the nonce, ciphertext, tag or associated data gives
    /// `CryptoError.authenticationFailed`, and no plaintext is returned.
    public static func open(_ box: [UInt8], key: SymmetricKey, associatedData: [UInt8] = []) throws -> [UInt8] {
        guard box.count >= nonceByteCount + tagByteCount else { throw CryptoError.authenticationFailed }
        guard box.count < Int(Int32.max) else { throw CryptoError.invalidInput("sealed box too large") }
        let nonce = Array(box[..<nonceByteCount])
        let ciphertext = Array(box[nonceByteCount..<(box.count - tagByteCount)])
        var tag = Array(box[(box.count - tagByteCount)...])
        return try key.contexts.withContext(sealing: false, nonce: nonce) { context in
            try CipherContext.addAssociatedData(associatedData, to: context, decrypting: true)
            // GCM never buffers, but the output always has room for a block so the pointer is never NULL.
            var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
            var length: Int32 = 0
            if !ciphertext.isEmpty {
                guard EVP_DecryptUpdate(context, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1
                else {
                    OpenSSLErrorQueue.clear()
                    throw CryptoError.authenticationFailed
                }
            }
            guard shim_gcm_set_tag(context, &tag, Int32(tagByteCount)) == 1 else {
                throw OpenSSLErrorQueue.error("set GCM tag")
            }
            var finalLength: Int32 = 0
            let verified = plaintext.withUnsafeMutableBufferPointer { buffer in
                EVP_DecryptFinal_ex(context, buffer.baseAddress! + Int(length), &finalLength)
            }
            guard verified == 1 else {
                OpenSSLErrorQueue.clear()
                throw CryptoError.authenticationFailed
            }
            return Array(plaintext[..<Int(length + finalLength)])
        }
    }

    /// Seals with a caller-chosen nonce. Only for known-answer tests: reusing a nonce under one key destroys GCM.
    static func seal(_ plaintext: [UInt8], key: SymmetricKey, nonce: [UInt8], associatedData: [UInt8]) throws
        -> [UInt8]
    {
        guard nonce.count == nonceByteCount else { throw CryptoError.invalidInput("GCM nonce must be 12 bytes") }
        guard plaintext.count < Int(Int32.max) - tagByteCount else {
            throw CryptoError.invalidInput("plaintext too large")
        }
        return try key.contexts.withContext(sealing: true, nonce: nonce) { context in
            try CipherContext.addAssociatedData(associatedData, to: context, decrypting: false)
            // GCM never buffers, but the output always has room for a block so the pointer is never NULL.
            var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 16)
            var length: Int32 = 0
            if !plaintext.isEmpty {
                guard EVP_EncryptUpdate(context, &ciphertext, &length, plaintext, Int32(plaintext.count)) == 1 else {
                    throw OpenSSLErrorQueue.error("EVP_EncryptUpdate")
                }
            }
            var finalLength: Int32 = 0
            let finished = ciphertext.withUnsafeMutableBufferPointer { buffer in
                EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(length), &finalLength)
            }
            guard finished == 1 else { throw OpenSSLErrorQueue.error("EVP_EncryptFinal_ex") }
            var tag = [UInt8](repeating: 0, count: tagByteCount)
            guard shim_gcm_get_tag(context, &tag, Int32(tagByteCount)) == 1 else {
                throw OpenSSLErrorQueue.error("get GCM tag")
            }
            return nonce + ciphertext[..<Int(length + finalLength)] + tag
        }
    }
}

/// Owns one `EVP_CIPHER_CTX` for the duration of a single operation.
final class CipherContext {
    let pointer: OpaquePointer

    init() throws {
        guard let pointer = EVP_CIPHER_CTX_new() else { throw OpenSSLErrorQueue.error("EVP_CIPHER_CTX_new") }
        self.pointer = pointer
    }

    deinit {
        EVP_CIPHER_CTX_free(pointer)
    }

    /// Feeds additional authenticated data (an update with no output buffer). Empty data is skipped.
    static func addAssociatedData(_ data: [UInt8], to context: OpaquePointer, decrypting: Bool) throws {
        guard !data.isEmpty else { return }
        guard data.count < Int(Int32.max) else { throw CryptoError.invalidInput("associated data too large") }
        var ignored: Int32 = 0
        let result = decrypting
            ? EVP_DecryptUpdate(context, nil, &ignored, data, Int32(data.count))
            : EVP_EncryptUpdate(context, nil, &ignored, data, Int32(data.count))
        guard result == 1 else { throw OpenSSLErrorQueue.error("GCM associated data") }
    }
}
