import COpenSSL

/// PEM reading and writing through OpenSSL memory BIOs.
///
/// Private keys go through `PEM_read_bio_PrivateKey`, which understands PKCS#8 and the traditional per-algorithm
/// formats. Public keys are read as a raw PEM block and dispatched on the label, because OpenSSL's only direct
/// reader for PKCS#1 "RSA PUBLIC KEY" is deprecated in OpenSSL 3.
enum PEM {
    /// The labels of public-key blocks this module reads.
    enum PublicKeyFormat {
        case subjectPublicKeyInfo
        case pkcs1RSA
    }

    /// Reads the first private key in `text`. Encrypted keys are refused rather than prompting for a password.
    static func readPrivateKey(_ text: String) throws -> EVPKey {
        let key = withReadBIO(text) { bio in
            PEM_read_bio_PrivateKey(bio, nil, refusePassword, nil)
        }
        guard let key else {
            OpenSSLErrorQueue.clear()
            throw CryptoError.invalidPEM
        }
        return EVPKey(taking: key)
    }

    /// Reads the first public key in `text`: SPKI "PUBLIC KEY", or PKCS#1 "RSA PUBLIC KEY" when allowed.
    static func readPublicKey(_ text: String, allowPKCS1RSA: Bool) throws -> EVPKey {
        let (label, der) = try readBlock(text)
        switch label {
        case "PUBLIC KEY":
            do {
                return try EVPKey.fromSubjectPublicKeyInfo(der)
            } catch {
                throw CryptoError.invalidPEM
            }
        case "RSA PUBLIC KEY" where allowPKCS1RSA:
            let key = der.withNonNullBytes { bytes, count -> OpaquePointer? in
                var cursor: UnsafePointer<UInt8>? = bytes
                return d2i_PublicKey(EVP_PKEY_RSA, nil, &cursor, count)
            }
            guard let key else {
                OpenSSLErrorQueue.clear()
                throw CryptoError.invalidPEM
            }
            return EVPKey(taking: key)
        default:
            throw CryptoError.invalidPEM
        }
    }

    /// The first PEM block in `text` as its label and decoded DER bytes.
    static func readBlock(_ text: String) throws -> (label: String, der: [UInt8]) {
        let block = withReadBIO(text) { bio -> (String, [UInt8])? in
            var name: UnsafeMutablePointer<CChar>? = nil
            var header: UnsafeMutablePointer<CChar>? = nil
            var data: UnsafeMutablePointer<UInt8>? = nil
            var length = 0
            guard PEM_read_bio(bio, &name, &header, &data, &length) == 1, let name, let data else { return nil }
            defer {
                shim_OPENSSL_free(name)
                shim_OPENSSL_free(header)
                shim_OPENSSL_free(data)
            }
            let label = String(cString: name)
            return (label, Array(UnsafeBufferPointer(start: data, count: length)))
        }
        guard let block else {
            OpenSSLErrorQueue.clear()
            throw CryptoError.invalidPEM
        }
        return block
    }

    /// PKCS#8 "PRIVATE KEY", unencrypted.
    static func privateKeyPEM(_ key: EVPKey) throws -> String {
        try writeToString("PEM_write_bio_PrivateKey") { bio in
            PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil)
        }
    }

    /// SPKI "PUBLIC KEY".
    static func publicKeyPEM(_ key: EVPKey) throws -> String {
        try writeToString("PEM_write_bio_PUBKEY") { bio in
            PEM_write_bio_PUBKEY(bio, key.pointer)
        }
    }

    /// Runs `body` with a read-only memory BIO over the UTF-8 bytes of `text`.
    static func withReadBIO<Result>(_ text: String, _ body: (OpaquePointer) -> Result?) -> Result? {
        let bytes = Array(text.utf8)
        guard bytes.count < Int(Int32.max) else { return nil }
        return bytes.withNonNullBytes { pointer, count in
            guard let bio = BIO_new_mem_buf(pointer, Int32(count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// Runs `write` against a growable memory BIO and returns what it wrote.
    static func writeToString(_ operation: String, _ write: (OpaquePointer) -> Int32) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLErrorQueue.error("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw OpenSSLErrorQueue.error(operation) }
        var contents: UnsafeMutablePointer<CChar>? = nil
        let length = shim_BIO_get_mem_data(bio, &contents)
        guard length > 0, let contents else { throw OpenSSLErrorQueue.error(operation) }
        return contents.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
    }
}

/// A password callback that supplies no password, so encrypted PEM fails instead of reading the terminal
/// (OpenSSL's default when no callback is given).
private func refusePassword(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int32, _ writing: Int32, _ context: UnsafeMutableRawPointer?
) -> Int32 {
    0
}
