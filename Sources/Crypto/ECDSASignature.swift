import COpenSSL

/// Converts ECDSA signatures between OpenSSL's DER `SEQUENCE { r, s }` and JWS's fixed-width `r || s`.
enum ECDSASignature {
    /// The width of each of `r` and `s` for P-256.
    static let scalarByteCount = 32

    /// DER to raw `r || s`, each half left-padded to 32 bytes.
    static func rawFromDER(_ der: [UInt8]) throws -> [UInt8] {
        let signature = der.withNonNullBytes { bytes, count -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = bytes
            return d2i_ECDSA_SIG(nil, &cursor, count)
        }
        guard let signature else { throw OpenSSLErrorQueue.error("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 2 * scalarByteCount)
        let written = raw.withUnsafeMutableBufferPointer { buffer -> (Int32, Int32) in
            let base = buffer.baseAddress!
            return (BN_bn2binpad(ECDSA_SIG_get0_r(signature), base, Int32(scalarByteCount)),
                    BN_bn2binpad(ECDSA_SIG_get0_s(signature), base + scalarByteCount, Int32(scalarByteCount)))
        }
        guard written == (Int32(scalarByteCount), Int32(scalarByteCount)) else {
            throw OpenSSLErrorQueue.error("BN_bn2binpad")
        }
        return raw
    }

    /// Raw `r || s` (exactly 64 bytes) to DER, or `nil` when the input has the wrong length.
    static func derFromRaw(_ raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 2 * scalarByteCount, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = raw.withUnsafeBufferPointer { buffer in
            (BN_bin2bn(buffer.baseAddress!, Int32(scalarByteCount), nil),
             BN_bin2bn(buffer.baseAddress! + scalarByteCount, Int32(scalarByteCount), nil))
        }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            OpenSSLErrorQueue.clear()
            return nil
        }
        // On success the signature owns both numbers.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            OpenSSLErrorQueue.clear()
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }
}
