import Crypto
import WireFormats

/// A service account the gateway trusts: its client email and the public halves of its keys. The private keys
/// stay with the backend (in its JSON key file); the gateway only verifies what they sign — JWT-bearer grant
/// assertions (admin API access) and custom tokens.
///
/// Two origins, one record: an account the CLI created (the gateway generated the key pair and wrote the key
/// file once, keeping only the certificate), or an existing Google service account registered by its email and
/// public certificate, so backends keep signing custom tokens with the key they already have.
struct ServiceAccount: Sendable, Equatable {
    enum Origin: String, Sendable {
        case created
        case registered
    }

    struct Key: Sendable, Equatable {
        /// `private_key_id` of the key file, the `kid` of what the key signs.
        var keyId: String
        /// An X.509 certificate (PEM) or a public key (SPKI PEM) of an RSA key.
        var publicPEM: String
    }

    var clientEmail: String
    var keys: [Key]
    var origin: Origin
    /// Seconds since the epoch.
    var createdAt: Int64

    /// Candidate verification keys for a token: the key named by `kid`, or every key when the token names none
    /// (pyrebase's custom tokens carry no `kid`). Keys that do not parse are skipped, never trusted. Parsed once per
    /// PEM text (`ServiceAccountKeyCache`); which PEMs are trusted comes from this record, read on every use.
    func verificationKeys(kid: String?, cache: ServiceAccountKeyCache = .shared) -> [RSAPublicKey] {
        keys.filter { kid == nil || $0.keyId == kid }.compactMap { cache.publicKey($0.publicPEM, parse: Self.publicKey) }
    }

    static func publicKey(_ pem: String) -> RSAPublicKey? {
        let spki = pem.contains("BEGIN CERTIFICATE") ? try? X509.publicKeyPEM(fromCertificatePEM: pem) : pem
        return spki.flatMap { try? RSAPublicKey(pem: $0) }
    }

    // MARK: Stored form (a settings row; see `ServiceAccountRegistry`)

    var json: JSONObject {
        ["clientEmail": .string(clientEmail), "origin": .string(origin.rawValue), "createdAt": .int(createdAt),
         "keys": .array(keys.map { .object(["keyId": .string($0.keyId), "publicPEM": .string($0.publicPEM)]) })]
    }

    init(clientEmail: String, keys: [Key], origin: Origin, createdAt: Int64) {
        self.clientEmail = clientEmail
        self.keys = keys
        self.origin = origin
        self.createdAt = createdAt
    }

    init?(json: JSONObject) {
        guard let email = json["clientEmail"]?.stringValue,
              let origin = json["origin"]?.stringValue.flatMap(Origin.init(rawValue:)),
              let createdAt = json["createdAt"]?.intValue,
              let keys = json["keys"]?.arrayValue
        else { return nil }
        self.clientEmail = email
        self.origin = origin
        self.createdAt = createdAt
        self.keys = keys.compactMap { key in
            guard let id = key["keyId"]?.stringValue, let pem = key["publicPEM"]?.stringValue else { return nil }
            return Key(keyId: id, publicPEM: pem)
        }
    }
}
