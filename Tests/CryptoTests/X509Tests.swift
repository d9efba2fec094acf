import Foundation
import Testing
@testable import Crypto
import COpenSSL

@Suite("Self-signed X.509 certificates")
struct X509Tests {
    static let notBefore = Date(timeIntervalSince1970: 1_700_000_000)
    static let notAfter = Date(timeIntervalSince1970: 1_700_000_000 + 14 * 86_400)

    static func makeCertificate() throws -> String {
        try X509.selfSignedCertificatePEM(for: SharedKeys.rsa, commonName: "gatehouse-signing", notBefore: notBefore,
                                          notAfter: notAfter, serialNumber: 0x1234_5678_9abc)
    }

    @Test("the certificate parses back with the given subject, validity, version and serial")
    func parsesBack() throws {
        let pem = try Self.makeCertificate()
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let certificate = try X509Certificate(pem: pem)
        #expect(certificate.subjectCommonName == "gatehouse-signing")
        #expect(certificate.notBefore == Self.notBefore)
        #expect(certificate.notAfter == Self.notAfter)
        #expect(certificate.version == 2)
        #expect(certificate.extensionIsCritical("basicConstraints") == true)
        #expect(certificate.extensionIsCritical("keyUsage") == true)
        #expect(certificate.extensionIsCritical("extendedKeyUsage") == true)
        #expect(certificate.extensionIsCritical("subjectAltName") == nil)
    }

    @Test("the certified key is the signing key, and the certificate verifies under it alone")
    func keyAndSignature() throws {
        let pem = try Self.makeCertificate()
        #expect(try X509.publicKeyPEM(fromCertificatePEM: pem) == SharedKeys.rsa.publicKey.spkiPEM())
        let certificate = try X509Certificate(pem: pem)
        #expect(certificate.isSigned(by: SharedKeys.rsa.publicKey.key))
        #expect(!certificate.isSigned(by: SharedKeys.otherRSA.publicKey.key))
    }

    @Test("a token signed by the key verifies with the key read from its certificate")
    func verifierPath() throws {
        let token = try JWS.signRS256(payload: Array("{}".utf8), key: SharedKeys.rsa, kid: "k")
        let certifiedKey = try RSAPublicKey(pem: X509.publicKeyPEM(fromCertificatePEM: Self.makeCertificate()))
        #expect(try CompactJWS(parsing: token).isSignatureValid(using: .rs256(certifiedKey)))
    }

    @Test("invalid requests and non-certificates are refused")
    func refusals() {
        #expect(throws: CryptoError.self) {
            try X509.selfSignedCertificatePEM(for: SharedKeys.rsa, commonName: "x", notBefore: Self.notAfter,
                                              notAfter: Self.notBefore, serialNumber: 1)
        }
        #expect(throws: CryptoError.self) {
            try X509.selfSignedCertificatePEM(for: SharedKeys.rsa, commonName: "x", notBefore: Self.notBefore,
                                              notAfter: Self.notAfter, serialNumber: 0)
        }
        #expect(throws: CryptoError.invalidPEM) { try X509.publicKeyPEM(fromCertificatePEM: PEMFixtures.rsaSPKIPublic) }
        #expect(throws: CryptoError.invalidPEM) { try X509.publicKeyPEM(fromCertificatePEM: "garbage") }
    }
}

/// Read only by these tests, so kept out of the production type.
extension X509Certificate {
    /// The subject's commonName, or `nil` when absent.
    var subjectCommonName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = X509_NAME_get_text_by_NID(X509_get_subject_name(pointer), NID_commonName, &buffer,
                                               Int32(buffer.count))
        guard length >= 0 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
