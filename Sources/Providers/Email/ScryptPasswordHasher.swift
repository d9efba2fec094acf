import AuthCore
import Crypto
import WireFormats

/// The gateway's password hash: scrypt (memory-hard) with parameters stored next to each hash, plus
/// verification of the hashes accounts imported from Firebase or another system bring along
/// (`ImportedPasswordCredential`: Firebase's modified scrypt, bcrypt, PBKDF2, HMACs and plain digests).
///
/// Stored forms (`PasswordCredential.algorithm` / `parameters`):
/// - `SCRYPT` / `{"n":32768,"r":8,"p":1,"length":32}`: standard scrypt (RFC 7914) of the UTF-8 password.
/// - `FIREBASE_SCRYPT` / `{"signerKey":"<base64>","saltSeparator":"<base64>","rounds":8,"memCost":14}`:
///   Firebase's project hash parameters; verified only, rehashed into `SCRYPT` after a successful sign-in.
/// - `BCRYPT`, `PBKDF2_SHA256`, `HMAC_SHA256`, … (Firebase's import names): the same, see `ImportedPasswordCredential`.
public struct ScryptPasswordHasher: PasswordHashing {
    public static let algorithm = "SCRYPT"
    public static let firebaseAlgorithm = ImportedPasswordCredential.firebaseScryptName

    public struct Parameters: Sendable, Equatable {
        public var n: UInt64
        public var r: UInt64
        public var p: UInt64
        public var length: Int

        /// 32 MiB and roughly 50–100 ms per hash on one core of a current server.
        public init(n: UInt64 = 1 << 15, r: UInt64 = 8, p: UInt64 = 1, length: Int = 32) {
            self.n = n
            self.r = r
            self.p = p
            self.length = length
        }

        var text: String {
            JSONSerializer.string(.object(["n": .int(Int64(n)), "r": .int(Int64(r)), "p": .int(Int64(p)),
                                           "length": .int(Int64(length))]))
        }

        init?(text: String) {
            guard let o = (try? JSONParser.parse(text))?.objectValue,
                  let n = o["n"]?.intValue, let r = o["r"]?.intValue, let p = o["p"]?.intValue,
                  let length = o["length"]?.intValue, n > 1, r >= 1, p >= 1, (16...64).contains(length)
            else { return nil }
            self.init(n: UInt64(n), r: UInt64(r), p: UInt64(p), length: Int(length))
        }
    }

    public let parameters: Parameters
    public static let saltLength = 16

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    public func hash(_ password: String) throws -> PasswordCredential {
        let salt = SecureRandom.bytes(count: Self.saltLength)
        let derived = try Scrypt.derive(password: Array(password.utf8), salt: salt, n: parameters.n,
                                        r: parameters.r, p: parameters.p, length: parameters.length)
        return PasswordCredential(algorithm: Self.algorithm, parameters: parameters.text, hash: derived, salt: salt)
    }

    public func verify(_ password: String, against credential: PasswordCredential) -> Bool {
        switch credential.algorithm {
        case Self.algorithm:
            guard let stored = Parameters(text: credential.parameters),
                  let derived = try? Scrypt.derive(password: Array(password.utf8), salt: credential.salt,
                                                   n: stored.n, r: stored.r, p: stored.p, length: stored.length)
            else { return false }
            return constantTimeEquals(derived, credential.hash)
        default:
            // Hashes imported from Firebase or another system: verified with their own formula, then replaced
            // with the gateway's hash after the sign-in succeeds (`needsRehash` is true for them).
            return ImportedPasswordCredential.verify(password, against: credential)
        }
    }

    public func needsRehash(_ credential: PasswordCredential) -> Bool {
        credential.algorithm != Self.algorithm || Parameters(text: credential.parameters) != parameters
    }

    /// A credential no password matches, with the current parameters: verifying against it costs exactly
    /// what verifying a real user's password costs, so "no such user" cannot be told apart by timing.
    public func decoyCredential() -> PasswordCredential {
        PasswordCredential(algorithm: Self.algorithm, parameters: parameters.text,
                           hash: SecureRandom.bytes(count: parameters.length), salt: SecureRandom.bytes(count: Self.saltLength))
    }
}

/// A Firebase project's password hash parameters (console → Users → "Password hash parameters").
public struct FirebaseHashParameters: Sendable, Equatable {
    public var signerKey: [UInt8]
    public var saltSeparator: [UInt8]
    public var rounds: Int
    public var memoryCost: Int

    public init(signerKey: [UInt8], saltSeparator: [UInt8], rounds: Int, memoryCost: Int) {
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
    }

    /// The `parameters` text stored with an imported `FIREBASE_SCRYPT` credential.
    public var text: String {
        JSONSerializer.string(.object([
            "signerKey": .string(Base64.encode(signerKey)), "saltSeparator": .string(Base64.encode(saltSeparator)),
            "rounds": .int(Int64(rounds)), "memCost": .int(Int64(memoryCost)),
        ]))
    }

    public init?(text: String) {
        guard let o = (try? JSONParser.parse(text))?.objectValue,
              let signer = o["signerKey"]?.stringValue.flatMap(Base64.decode),
              let separator = o["saltSeparator"]?.stringValue.flatMap(Base64.decode),
              let rounds = o["rounds"]?.intValue, let memCost = o["memCost"]?.intValue
        else { return nil }
        self.init(signerKey: signer, saltSeparator: separator, rounds: Int(rounds), memoryCost: Int(memCost))
    }
}
