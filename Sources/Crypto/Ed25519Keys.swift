import COpenSSL

/// Ed25519 (RFC 8032 "pure" EdDSA), for signatures a provider makes with a published raw key rather than a JWK:
/// Telegram signs Mini App launch data with one, so a gateway can check data for bots whose token it does not hold.
///
/// Ed25519 hashes internally (SHA-512 over the whole message, twice), so OpenSSL's one-shot
/// `EVP_DigestSign`/`EVP_DigestVerify` are used with a NULL digest, as its documentation requires for this key type.
public final class Ed25519PublicKey: @unchecked Sendable {
    /// A raw public key is 32 bytes (the encoded point, RFC 8032 §5.1.2).
    public static let byteCount = 32
    /// A signature is 64 bytes (`R || S`, RFC 8032 §5.1.6).
    public static let signatureByteCount = 64

    let key: EVPKey
    /// The 32 raw bytes as published (hex in Telegram's documentation).
    public let rawRepresentation: [UInt8]

    init(key: EVPKey) throws {
        guard key.baseID == EVP_PKEY_ED25519 else { throw CryptoError.invalidKey("not an Ed25519 key") }
        self.key = key
        self.rawRepresentation = try key.rawPublicKey()
    }

    /// Builds a key from its 32 raw bytes. Any other length is refused.
    public convenience init(rawRepresentation: [UInt8]) throws {
        guard rawRepresentation.count == Self.byteCount else {
            throw CryptoError.invalidKey("an Ed25519 public key is 32 bytes")
        }
        let pointer = rawRepresentation.withNonNullBytes { bytes, count in
            EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, bytes, count)
        }
        guard let pointer else {
            OpenSSLErrorQueue.clear()
            throw CryptoError.invalidKey("not an Ed25519 public key")
        }
        try self.init(key: EVPKey(taking: pointer))
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` under this key. Every failure, including a
    /// signature that is not 64 bytes, is `false`.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == Self.signatureByteCount else { return false }
        return key.verifyWithoutDigest(signature: signature, message: message)
    }
}

/// An Ed25519 private key. The gateway itself only verifies; signing exists for tests that need a signer whose
/// output the public-key side must accept (and for RFC 8032's vectors, which test both directions).
public final class Ed25519PrivateKey: @unchecked Sendable {
    /// The private key is a 32-byte seed (RFC 8032 §5.1.5).
    public static let seedByteCount = 32

    let key: EVPKey
    /// The matching public key, holding no private material.
    public let publicKey: Ed25519PublicKey

    /// Builds the key from its 32-byte seed (the "SECRET KEY" of RFC 8032's examples).
    public init(seed: [UInt8]) throws {
        guard seed.count == Self.seedByteCount else { throw CryptoError.invalidKey("an Ed25519 seed is 32 bytes") }
        let pointer = seed.withNonNullBytes { bytes, count in
            EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, bytes, count)
        }
        guard let pointer else { throw OpenSSLErrorQueue.error("EVP_PKEY_new_raw_private_key") }
        let key = EVPKey(taking: pointer)
        self.key = key
        self.publicKey = try Ed25519PublicKey(rawRepresentation: key.rawPublicKey())
    }

    /// A key from a fresh random seed.
    public static func generate() throws -> Ed25519PrivateKey {
        try Ed25519PrivateKey(seed: SecureRandom.bytes(count: seedByteCount))
    }

    /// The 64-byte signature of `message`. Deterministic: the same key and message always give the same bytes.
    public func signature(for message: [UInt8]) throws -> [UInt8] {
        try key.signWithoutDigest(message)
    }
}

extension EVPKey {
    /// The raw public key bytes of a key type that has a raw form (Ed25519, X25519).
    func rawPublicKey() throws -> [UInt8] {
        var length = 0
        guard EVP_PKEY_get_raw_public_key(pointer, nil, &length) == 1 else { throw OpenSSLErrorQueue.error("EVP_PKEY_get_raw_public_key") }
        var bytes = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_get_raw_public_key(pointer, &bytes, &length) == 1 else { throw OpenSSLErrorQueue.error("EVP_PKEY_get_raw_public_key") }
        return Array(bytes.prefix(length))
    }

    /// One-shot signing for schemes that hash internally (Ed25519): the digest argument must be NULL.
    func signWithoutDigest(_ message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.error("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, nil, nil, pointer) == 1 else {
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
            return Array(signature.prefix(length))
        }
    }

    /// One-shot verification for schemes that hash internally (Ed25519). Every failure is `false`.
    func verifyWithoutDigest(signature: [UInt8], message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, pointer) == 1 else {
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
