import COpenSSL

/// Owns one OpenSSL `EVP_PKEY` and offers the operations the public key types share.
///
/// OpenSSL documents `EVP_PKEY` as safe for concurrent signing and verification as long as each operation uses
/// its own `EVP_MD_CTX`, which every method here creates per call; the key itself is never mutated after
/// construction. That is what makes the `@unchecked Sendable` sound.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`: it is freed when this object is.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// The key family, as an `EVP_PKEY_*` identifier (`EVP_PKEY_RSA`, `EVP_PKEY_EC`, ...).
    var baseID: Int32 { EVP_PKEY_get_base_id(pointer) }

    /// The size of the key in bits (the modulus for RSA, the field for EC).
    var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

    /// A big-number parameter (`"n"`, `"e"`, `"qx"`, ...) as minimal big-endian bytes, or `nil` if absent.
    func bigNumber(_ name: String) -> [UInt8]? {
        var number: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        defer { BN_free(number) }
        let byteCount = (Int(BN_num_bits(number)) + 7) / 8
        var bytes = [UInt8](repeating: 0, count: byteCount)
        _ = BN_bn2bin(number, &bytes)
        return bytes
    }

    /// A string parameter such as the EC group name, or `nil` if absent.
    func utf8String(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_utf8_string_param(pointer, name, &buffer, buffer.count, &length) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The DER SubjectPublicKeyInfo of the key's public half.
    func subjectPublicKeyInfo() throws -> [UInt8] {
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else { throw OpenSSLErrorQueue.error("i2d_PUBKEY") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(pointer, &cursor)
        }
        guard written == length else { throw OpenSSLErrorQueue.error("i2d_PUBKEY") }
        return der
    }

    /// Parses a DER SubjectPublicKeyInfo of any key type.
    static func fromSubjectPublicKeyInfo(_ der: [UInt8]) throws -> EVPKey {
        let key = der.withNonNullBytes { bytes, count -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = bytes
            return d2i_PUBKEY(nil, &cursor, count)
        }
        guard let key else {
            OpenSSLErrorQueue.clear()
            throw CryptoError.invalidKey("not a SubjectPublicKeyInfo")
        }
        return EVPKey(taking: key)
    }

    /// A new key holding only the public half, so public-key objects never carry private material.
    func publicOnly() throws -> EVPKey {
        try EVPKey.fromSubjectPublicKeyInfo(subjectPublicKeyInfo())
    }

    /// Signs `message` with SHA-256 in the key's default scheme: RSASSA-PKCS1-v1_5 for RSA, DER ECDSA for EC.
    func signSHA256(_ message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.error("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, Algorithms.sha256.handle, nil, pointer) == 1 else {
            OpenSSLErrorQueue.clear()
            throw CryptoError.signingFailed
        }
        return try message.withNonNullBytes { bytes, count in
            var length = 0
            guard EVP_DigestSign(context, nil, &length, bytes, count) == 1 else {
                OpenSSLErrorQueue.clear()
                throw CryptoError.signingFailed
            }
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &signature, &length, bytes, count) == 1 else {
                OpenSSLErrorQueue.clear()
                throw CryptoError.signingFailed
            }
            // ECDSA's upper bound can exceed the DER it actually wrote.
            signature.removeSubrange(length...)
            return signature
        }
    }

    /// Checks a SHA-256 signature in the key's default scheme. Every failure, including malformed input, is `false`.
    func verifySHA256(signature: [UInt8], message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, Algorithms.sha256.handle, nil, pointer) == 1 else {
            OpenSSLErrorQueue.clear()
            return false
        }
        let result = signature.withNonNullBytes { signatureBytes, signatureCount in
            message.withNonNullBytes { messageBytes, messageCount in
                EVP_DigestVerify(context, signatureBytes, signatureCount, messageBytes, messageCount)
            }
        }
        if result != 1 { OpenSSLErrorQueue.clear() }
        return result == 1
    }
}
