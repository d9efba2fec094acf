import Crypto
import WireFormats

/// How a password hash made elsewhere is kept in a `PasswordCredential`, and read back for sign-in and export.
///
/// `algorithm` is Firebase's name (`HMAC_SHA256`, `BCRYPT`, …), except Firebase's own scrypt, stored as
/// `FIREBASE_SCRYPT` because `SCRYPT` is the gateway's own hash. `parameters` is JSON text with the fields the
/// algorithm needs, byte strings in standard base64:
/// `{"signerKey","saltSeparator","rounds","memCost","parallelization","blockSize","dkLen","passwordHashOrder"}`.
/// Such credentials are verified only; a successful sign-in replaces them with the gateway's hash.
public enum ImportedPasswordCredential {
    public static let firebaseScryptName = "FIREBASE_SCRYPT"
    /// The gateway's own scrypt (see `ScryptPasswordHasher`), which Firebase can import as `STANDARD_SCRYPT`.
    public static let gatewayScryptName = "SCRYPT"

    /// The stored algorithm name and parameter text of one configuration, made once and shared by every user an
    /// import gives that configuration (serialising it per user was a tenth of an import's time).
    public struct Template: Sendable, Equatable {
        public let parameters: ForeignHashParameters
        public let algorithm: String
        public let parametersText: String

        public init(_ parameters: ForeignHashParameters) {
            let probe = ImportedPasswordCredential.make(hash: [], salt: [], parameters: parameters)
            self.parameters = parameters
            self.algorithm = probe.algorithm
            self.parametersText = probe.parameters
        }

        public func credential(hash: [UInt8], salt: [UInt8]) -> PasswordCredential {
            PasswordCredential(algorithm: algorithm, parameters: parametersText, hash: hash, salt: salt)
        }
    }

    public static func make(hash: [UInt8], salt: [UInt8], parameters p: ForeignHashParameters) -> PasswordCredential {
        var fields: JSONObject = [:]
        switch p.algorithm {
        case .firebaseScrypt:
            fields = ["signerKey": .string(Base64.encode(p.signerKey)), "saltSeparator": .string(Base64.encode(p.saltSeparator)),
                      "rounds": .int(Int64(p.rounds)), "memCost": .int(Int64(p.memoryCost))]
        case .standardScrypt:
            fields = ["memCost": .int(Int64(p.memoryCost)), "parallelization": .int(Int64(p.parallelization)),
                      "blockSize": .int(Int64(p.blockSize)), "dkLen": .int(Int64(p.derivedKeyLength))]
        case .bcrypt:
            break
        case .pbkdf2SHA256, .pbkdfSHA1:
            fields = ["rounds": .int(Int64(p.rounds))]
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5:
            fields = ["signerKey": .string(Base64.encode(p.signerKey)), "passwordHashOrder": .string(order(p))]
        case .sha512, .sha256, .sha1, .md5:
            fields = ["rounds": .int(Int64(p.rounds)), "passwordHashOrder": .string(order(p))]
        }
        let name = p.algorithm == .firebaseScrypt ? firebaseScryptName : p.algorithm.rawValue
        return PasswordCredential(algorithm: name, parameters: JSONSerializer.string(.object(fields)), hash: hash, salt: salt)
    }

    /// The foreign parameters of an imported credential; also of the gateway's own scrypt, as the
    /// `STANDARD_SCRYPT` Firebase would import it. Nil for anything unknown or damaged.
    public static func parameters(of credential: PasswordCredential) -> ForeignHashParameters? {
        guard let fields = (try? JSONParser.parse(credential.parameters))?.objectValue else { return nil }
        func int(_ key: String) -> Int? { fields[key]?.intValue.flatMap { Int(exactly: $0) } }
        func bytes(_ key: String) -> [UInt8]? { fields[key]?.stringValue.flatMap(Base64.decode) }
        let saltFirst = fields["passwordHashOrder"]?.stringValue.map { $0 == "SALT_AND_PASSWORD" }
        switch credential.algorithm {
        case firebaseScryptName:
            guard let key = bytes("signerKey"), let rounds = int("rounds"), let cost = int("memCost") else { return nil }
            return ForeignHashParameters(algorithm: .firebaseScrypt, signerKey: key, saltSeparator: bytes("saltSeparator") ?? [],
                                         rounds: rounds, memoryCost: cost)
        case gatewayScryptName:
            guard let n = int("n"), let r = int("r"), let p = int("p"), let length = int("length") else { return nil }
            return ForeignHashParameters(algorithm: .standardScrypt, memoryCost: n, parallelization: p, blockSize: r,
                                         derivedKeyLength: length)
        default:
            guard let algorithm = ForeignHashAlgorithm(rawValue: credential.algorithm), algorithm != .firebaseScrypt else {
                return nil
            }
            return ForeignHashParameters(
                algorithm: algorithm, signerKey: bytes("signerKey") ?? [], rounds: int("rounds") ?? 0,
                memoryCost: int("memCost") ?? 0, parallelization: int("parallelization") ?? 0,
                blockSize: int("blockSize") ?? 0, derivedKeyLength: int("dkLen") ?? 0, saltFirst: saltFirst)
        }
    }

    /// Whether `password` matches an imported credential (false for the gateway's own and unknown algorithms).
    public static func verify(_ password: String, against credential: PasswordCredential) -> Bool {
        guard credential.algorithm != gatewayScryptName, let parameters = parameters(of: credential) else { return false }
        return ForeignPasswordHash.verify(password: Array(password.utf8), salt: credential.salt,
                                          storedHash: credential.hash, parameters: parameters)
    }

    private static func order(_ p: ForeignHashParameters) -> String {
        p.saltFirst ? "SALT_AND_PASSWORD" : "PASSWORD_AND_SALT"
    }
}
