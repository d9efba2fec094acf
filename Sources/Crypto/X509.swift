import COpenSSL
import Foundation

/// X.509 certificates for publishing the gateway's signing keys.
///
/// firebase-admin verifies ID tokens against `securetoken@system.gserviceaccount.com`-style endpoints that map key
/// IDs to PEM certificates, so the gateway wraps each RSA signing key in a self-signed certificate.
public enum X509 {
    /// A self-signed X.509 v3 certificate (sha256WithRSAEncryption) for `key`, with subject and issuer
    /// `CN=commonName` and the extensions Google's own token-signing certificates carry: basicConstraints
    /// `CA:FALSE`, keyUsage `digitalSignature` and extendedKeyUsage `clientAuth`, all critical.
    ///
    /// `serialNumber` must be positive (RFC 5280 §4.1.2.2). Dates are truncated to whole seconds.
    public static func selfSignedCertificatePEM(for key: RSAPrivateKey, commonName: String, notBefore: Date,
                                                notAfter: Date, serialNumber: UInt64) throws -> String {
        guard serialNumber > 0 else { throw CryptoError.invalidInput("certificate serial number must be positive") }
        guard !commonName.isEmpty, commonName.utf8.count <= 64 else {
            throw CryptoError.invalidInput("common name must be 1...64 bytes")
        }
        guard notBefore < notAfter else { throw CryptoError.invalidInput("notBefore must precede notAfter") }
        let certificate = try X509Certificate.empty()
        let handle = certificate.pointer
        guard X509_set_version(handle, 2) == 1,  // 2 encodes v3
              ASN1_INTEGER_set_uint64(X509_get_serialNumber(handle), serialNumber) == 1,
              ASN1_TIME_set(X509_getm_notBefore(handle), time_t(notBefore.timeIntervalSince1970)) != nil,
              ASN1_TIME_set(X509_getm_notAfter(handle), time_t(notAfter.timeIntervalSince1970)) != nil,
              X509_set_pubkey(handle, key.key.pointer) == 1
        else {
            throw OpenSSLErrorQueue.error("building certificate fields")
        }
        let name = X509_get_subject_name(handle)
        guard X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1,
              X509_set_issuer_name(handle, name) == 1
        else {
            throw OpenSSLErrorQueue.error("setting certificate names")
        }
        try addExtension(NID_basic_constraints, "critical,CA:FALSE", to: handle)
        try addExtension(NID_key_usage, "critical,digitalSignature", to: handle)
        try addExtension(NID_ext_key_usage, "critical,clientAuth", to: handle)
        guard X509_sign(handle, key.key.pointer, Algorithms.sha256.handle) > 0 else {
            throw OpenSSLErrorQueue.error("X509_sign")
        }
        return try PEM.writeToString("PEM_write_bio_X509") { bio in PEM_write_bio_X509(bio, handle) }
    }

    /// The SPKI "PUBLIC KEY" PEM of the key inside a PEM certificate.
    public static func publicKeyPEM(fromCertificatePEM pem: String) throws -> String {
        try PEM.publicKeyPEM(X509Certificate(pem: pem).publicKey())
    }

    private static func addExtension(_ nid: Int32, _ value: String, to certificate: OpaquePointer) throws {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, certificate, certificate, nil, nil, 0)
        guard let extensionValue = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
            throw OpenSSLErrorQueue.error("X509V3_EXT_conf_nid")
        }
        defer { X509_EXTENSION_free(extensionValue) }
        guard X509_add_ext(certificate, extensionValue, -1) == 1 else { throw OpenSSLErrorQueue.error("X509_add_ext") }
    }
}

/// Owns one parsed or under-construction OpenSSL `X509`.
final class X509Certificate {
    let pointer: OpaquePointer

    private init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    static func empty() throws -> X509Certificate {
        guard let pointer = X509_new() else { throw OpenSSLErrorQueue.error("X509_new") }
        return X509Certificate(taking: pointer)
    }

    /// Parses the first "CERTIFICATE" block of `pem`.
    convenience init(pem: String) throws {
        let parsed = PEM.withReadBIO(pem) { bio in PEM_read_bio_X509(bio, nil, nil, nil) }
        guard let parsed else {
            OpenSSLErrorQueue.clear()
            throw CryptoError.invalidPEM
        }
        self.init(taking: parsed)
    }

    /// The certified public key.
    func publicKey() throws -> EVPKey {
        guard let key = X509_get_pubkey(pointer) else { throw OpenSSLErrorQueue.error("X509_get_pubkey") }
        return EVPKey(taking: key)
    }

    var notBefore: Date? { Self.date(X509_get0_notBefore(pointer)) }
    var notAfter: Date? { Self.date(X509_get0_notAfter(pointer)) }

    /// The X.509 version number as written (2 means v3).
    var version: Int { X509_get_version(pointer) }

    /// Whether the certificate's signature verifies under `key`.
    func isSigned(by key: EVPKey) -> Bool {
        let result = X509_verify(pointer, key.pointer)
        if result != 1 { OpenSSLErrorQueue.clear() }
        return result == 1
    }

    /// Whether the extension with OpenSSL short name `name` ("basicConstraints", "keyUsage", ...) is marked
    /// critical, or `nil` when the certificate lacks it.
    func extensionIsCritical(_ name: String) -> Bool? {
        let nid = OBJ_sn2nid(name)
        guard nid != NID_undef else { return nil }
        let index = X509_get_ext_by_NID(pointer, nid, -1)
        guard index >= 0, let found = X509_get_ext(pointer, index) else { return nil }
        return X509_EXTENSION_get_critical(found) == 1
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time, let epoch = ASN1_TIME_set(nil, 0) else { return nil }
        defer { ASN1_TIME_free(epoch) }
        var days: Int32 = 0
        var seconds: Int32 = 0
        guard ASN1_TIME_diff(&days, &seconds, epoch, time) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return Date(timeIntervalSince1970: TimeInterval(days) * 86_400 + TimeInterval(seconds))
    }
}
