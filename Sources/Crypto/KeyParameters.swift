import COpenSSL

/// Builds an `EVP_PKEY` from named components (JWK numbers, EC coordinates) through `OSSL_PARAM_BLD`.
///
/// The builder keeps references to the names and values it is given until the parameter array is built, and
/// the array keeps referring to the names afterwards, so this class owns C copies of both for its lifetime.
final class KeyParameters {
    private let builder: OpaquePointer
    private var numbers: [OpaquePointer] = []
    private var storage: [UnsafeMutableRawPointer] = []

    init() throws {
        guard let builder = OSSL_PARAM_BLD_new() else { throw OpenSSLErrorQueue.error("OSSL_PARAM_BLD_new") }
        self.builder = builder
    }

    deinit {
        OSSL_PARAM_BLD_free(builder)
        numbers.forEach { BN_clear_free($0) }
        storage.forEach { free($0) }
    }

    /// Adds an unsigned big-endian integer parameter (RSA `n`, `e`, `d`, primes, ...).
    func addNumber(_ name: String, bigEndian bytes: [UInt8]) throws {
        let number = bytes.withNonNullBytes { pointer, count in BN_bin2bn(pointer, Int32(count), nil) }
        guard let number else { throw OpenSSLErrorQueue.error("BN_bin2bn") }
        numbers.append(number)
        guard OSSL_PARAM_BLD_push_BN(builder, retained(name), number) == 1 else {
            throw OpenSSLErrorQueue.error("OSSL_PARAM_BLD_push_BN")
        }
    }

    /// Adds a UTF-8 string parameter (the EC group name).
    func addString(_ name: String, _ value: String) throws {
        let copy = retained(value)
        guard OSSL_PARAM_BLD_push_utf8_string(builder, retained(name), copy, 0) == 1 else {
            throw OpenSSLErrorQueue.error("OSSL_PARAM_BLD_push_utf8_string")
        }
    }

    /// Adds an octet-string parameter (an encoded EC point).
    func addOctets(_ name: String, _ value: [UInt8]) throws {
        let copy = malloc(max(value.count, 1))!
        storage.append(copy)
        value.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) }
        }
        guard OSSL_PARAM_BLD_push_octet_string(builder, retained(name), copy, value.count) == 1 else {
            throw OpenSSLErrorQueue.error("OSSL_PARAM_BLD_push_octet_string")
        }
    }

    /// Creates a key of `keyType` ("RSA" or "EC") from the parameters added so far.
    /// `selection` is `shim_EVP_PKEY_PUBLIC_KEY()` or `shim_EVP_PKEY_KEYPAIR()`.
    func makeKey(type keyType: String, selection: Int32) throws -> EVPKey {
        guard let parameters = OSSL_PARAM_BLD_to_param(builder) else {
            throw OpenSSLErrorQueue.error("OSSL_PARAM_BLD_to_param")
        }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, keyType, nil) else {
            throw OpenSSLErrorQueue.error("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_fromdata_init(context) == 1,
              EVP_PKEY_fromdata(context, &key, selection, parameters) == 1,
              let key
        else {
            throw CryptoError.invalidKey(OpenSSLErrorQueue.drain(fallback: "\(keyType) components rejected"))
        }
        return EVPKey(taking: key)
    }

    private func retained(_ text: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(text)!
        storage.append(UnsafeMutableRawPointer(copy))
        return copy
    }
}
