import Crypto
import Foundation
import WireFormats

/// A new service account and its JSON key file in Google's format (`type: service_account`, `private_key_id`,
/// `private_key`, `client_email`, `client_id`, `token_uri`, ...), so firebase-admin's
/// `credentials.Certificate(file)` and the Google auth libraries of other languages load it unchanged. Its
/// `token_uri` is the gateway's JWT-bearer grant endpoint: the libraries fetch their admin access tokens there.
///
/// The gateway keeps only the certificate; the private key exists in the key file alone.
struct ServiceAccountKeyFile {
    let account: ServiceAccount
    let json: JSONObject

    /// Google's rule for account names: 6 to 30 characters, lower-case letters, digits and hyphens, starting
    /// with a letter and not ending with a hyphen.
    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (6...30).contains(bytes.count), let first = bytes.first, let last = bytes.last,
              (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), last != UInt8(ascii: "-")
        else { return false }
        return bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    static func clientEmail(name: String, projectId: String) -> String { "\(name)@\(projectId).iam.gserviceaccount.com" }

    /// Generates an RSA-2048 key for a new account `name` of `projectId`, whose key file sends token requests to
    /// `gatewayURL` (the gateway's public base URL).
    static func create(name: String, projectId: String, gatewayURL: String, now: Int64) throws -> ServiceAccountKeyFile {
        let key = try RSAPrivateKey.generate(bits: 2048)
        let email = clientEmail(name: name, projectId: projectId)
        let keyId = Hex.encode(Array(SHA256.hash(Array(try key.publicKey.spkiPEM().utf8)).prefix(20)))
        let certificate = try X509.selfSignedCertificatePEM(
            for: key, commonName: String(email.prefix(64)),
            notBefore: Date(timeIntervalSince1970: TimeInterval(now - 300)),
            notAfter: Date(timeIntervalSince1970: TimeInterval(now + 10 * 365 * 86_400)),
            serialNumber: UInt64.random(in: 1...UInt64(Int64.max)))
        let account = ServiceAccount(clientEmail: email, keys: [.init(keyId: keyId, publicPEM: certificate)],
                                     origin: .created, createdAt: now)
        // Google's client ids are 21 decimal digits; Java's loader requires one.
        let clientId = "1" + (0..<20).map { _ in String(Int.random(in: 0...9)) }.joined()
        let base = gatewayURL.hasSuffix("/") ? String(gatewayURL.dropLast()) : gatewayURL
        let json: JSONObject = [
            "type": "service_account", "project_id": .string(projectId), "private_key_id": .string(keyId),
            "private_key": .string(try key.pkcs8PEM()), "client_email": .string(email), "client_id": .string(clientId),
            "token_uri": .string(base + JWTBearerGrant.path), "universe_domain": "googleapis.com",
        ]
        return ServiceAccountKeyFile(account: account, json: json)
    }
}
