import COpenSSL
import WireFormats

/// The password hash algorithms Firebase's user import accepts (firebase-admin's `UserImportHash`), spelled as
/// the `hashAlgorithm` field of `accounts:batchCreate`.
public enum ForeignHashAlgorithm: String, Sendable, CaseIterable {
    case firebaseScrypt = "SCRYPT"
    case standardScrypt = "STANDARD_SCRYPT"
    case bcrypt = "BCRYPT"
    case pbkdf2SHA256 = "PBKDF2_SHA256"
    case pbkdfSHA1 = "PBKDF_SHA1"
    case hmacSHA512 = "HMAC_SHA512"
    case hmacSHA256 = "HMAC_SHA256"
    case hmacSHA1 = "HMAC_SHA1"
    case hmacMD5 = "HMAC_MD5"
    case sha512 = "SHA512"
    case sha256 = "SHA256"
    case sha1 = "SHA1"
    case md5 = "MD5"

    /// The digest underneath the HMAC, plain, and PBKDF2 families (nil for the scrypts and bcrypt).
    var digestName: String? {
        switch self {
        case .hmacSHA512, .sha512: return "SHA512"
        case .hmacSHA256, .sha256, .pbkdf2SHA256: return "SHA256"
        case .hmacSHA1, .sha1, .pbkdfSHA1: return "SHA1"
        case .hmacMD5, .md5: return "MD5"
        case .firebaseScrypt, .standardScrypt, .bcrypt: return nil
        }
    }

    public var isHMAC: Bool { [.hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5].contains(self) }
    public var isPlainDigest: Bool { [.sha512, .sha256, .sha1, .md5].contains(self) }
    public var isPBKDF2: Bool { self == .pbkdf2SHA256 || self == .pbkdfSHA1 }
}

/// One project's (or one user's) hash configuration, with the fields `accounts:batchCreate` carries. Which fields
/// matter depends on the algorithm; the others stay at their zero values.
public struct ForeignHashParameters: Sendable, Equatable {
    public var algorithm: ForeignHashAlgorithm
    /// HMAC key, or Firebase scrypt's signer key.
    public var signerKey: [UInt8]
    /// Firebase scrypt: appended to each user's salt.
    public var saltSeparator: [UInt8]
    /// Digest, PBKDF2 and Firebase scrypt rounds (scrypt's r).
    public var rounds: Int
    /// Firebase scrypt: log2 of N. Standard scrypt: N itself (`cpuMemCost`).
    public var memoryCost: Int
    public var parallelization: Int
    public var blockSize: Int
    public var derivedKeyLength: Int
    /// `passwordHashOrder`: whether the salt comes before the password in the hashed message. Firebase's default
    /// differs by family: salt first for the plain digests, password first for the HMACs.
    public var saltFirst: Bool

    public init(algorithm: ForeignHashAlgorithm, signerKey: [UInt8] = [], saltSeparator: [UInt8] = [], rounds: Int = 0,
                memoryCost: Int = 0, parallelization: Int = 0, blockSize: Int = 0, derivedKeyLength: Int = 0,
                saltFirst: Bool? = nil) {
        self.algorithm = algorithm
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
        self.parallelization = parallelization
        self.blockSize = blockSize
        self.derivedKeyLength = derivedKeyLength
        self.saltFirst = saltFirst ?? !algorithm.isHMAC
    }
}

/// Verification of password hashes made by another system, with Firebase's formulas:
///
/// - `MD5`, `SHA1`, `SHA256`, `SHA512`: `h = H(salt ‖ password)` (or `password ‖ salt`), then `h = H(h)` until H
///   ran `rounds` times, on raw bytes. `rounds` 0 (MD5 only) is one MD5 whose lowercase hex text is the hash.
/// - `HMAC_*`: `HMAC(signerKey, password ‖ salt)` (or `salt ‖ password`).
/// - `PBKDF_SHA1`, `PBKDF2_SHA256`: PBKDF2(password, salt, `rounds` iterations (0 is read as 1), length of the
///   stored hash).
/// - `STANDARD_SCRYPT`: scrypt(password, salt, N = `memoryCost`, r = `blockSize`, p = `parallelization`,
///   `derivedKeyLength`).
/// - `SCRYPT`: Firebase's modified scrypt (`FirebaseScrypt`).
/// - `BCRYPT`: the stored hash is the whole modular-crypt string (`$2a$10$…`), checked with libxcrypt.
public enum ForeignPasswordHash {
    /// What `password` hashes to under `parameters` and `salt`, as long as `expectedLength` where the algorithm
    /// lets the caller choose (PBKDF2); `bcrypt` takes the stored string as its setting.
    public static func derive(password: [UInt8], salt: [UInt8], parameters p: ForeignHashParameters,
                              storedHash: [UInt8]) throws -> [UInt8] {
        let message = p.saltFirst ? salt + password : password + salt
        switch p.algorithm {
        case .firebaseScrypt:
            return try FirebaseScrypt.hash(password: password, salt: salt, saltSeparator: p.saltSeparator,
                                           signerKey: p.signerKey, rounds: p.rounds, memoryCost: p.memoryCost)
        case .standardScrypt:
            guard p.memoryCost > 1, p.blockSize >= 1, p.parallelization >= 1, p.derivedKeyLength >= 1 else {
                throw CryptoError.invalidInput("standard scrypt needs N > 1, r, p and a key length of at least 1")
            }
            return try Scrypt.derive(password: password, salt: salt, n: UInt64(p.memoryCost), r: UInt64(p.blockSize),
                                     p: UInt64(p.parallelization), length: p.derivedKeyLength)
        case .bcrypt:
            return try BCrypt.hash(password: password, setting: storedHash)
        case .pbkdf2SHA256, .pbkdfSHA1:
            return try pbkdf2(password: password, salt: salt, iterations: max(1, p.rounds),
                              digest: p.algorithm.digestName!, length: max(1, storedHash.count))
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5:
            return try hmac(key: p.signerKey, message: message, digest: p.algorithm.digestName!)
        case .sha512, .sha256, .sha1, .md5:
            let name = p.algorithm.digestName!
            if p.rounds == 0 && p.algorithm == .md5 {
                return Array(Hex.encode(try digest(message, name)).utf8)
            }
            var value = try digest(message, name)
            for _ in 1..<max(1, p.rounds) { value = try digest(value, name) }
            return value
        }
    }

    /// Whether `password` produces `storedHash`, compared in constant time. Broken parameters are `false`.
    public static func verify(password: [UInt8], salt: [UInt8], storedHash: [UInt8],
                              parameters: ForeignHashParameters) -> Bool {
        guard !storedHash.isEmpty,
              let actual = try? derive(password: password, salt: salt, parameters: parameters, storedHash: storedHash)
        else { return false }
        return constantTimeEquals(actual, storedHash)
    }

    static func digest(_ data: [UInt8], _ name: String) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        let ok = data.withNonNullBytes { bytes, count in
            EVP_Digest(bytes, count, &output, &length, ForeignDigests.handle(name), nil)
        }
        guard ok == 1 else { throw OpenSSLErrorQueue.error("EVP_Digest(\(name))") }
        return Array(output[..<Int(length)])
    }

    static func hmac(key: [UInt8], message: [UInt8], digest name: String) throws -> [UInt8] {
        guard key.count <= Int(Int32.max) else { throw CryptoError.invalidInput("HMAC key too long") }
        var output = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        let result = key.withNonNullBytes { keyBytes, keyCount in
            message.withNonNullBytes { messageBytes, messageCount in
                HMAC(ForeignDigests.handle(name), keyBytes, Int32(keyCount), messageBytes, messageCount, &output, &length)
            }
        }
        guard result != nil else { throw OpenSSLErrorQueue.error("HMAC(\(name))") }
        return Array(output[..<Int(length)])
    }

    static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int, digest name: String,
                       length: Int) throws -> [UInt8] {
        guard iterations <= Int(Int32.max), length <= 1024, password.count <= Int(Int32.max),
              salt.count <= Int(Int32.max) else {
            throw CryptoError.invalidInput("PBKDF2 parameters out of range")
        }
        var output = [UInt8](repeating: 0, count: length)
        let ok = password.withNonNullBytes { passwordBytes, passwordCount in
            salt.withNonNullBytes { saltBytes, saltCount in
                passwordBytes.withMemoryRebound(to: CChar.self, capacity: max(passwordCount, 1)) { chars in
                    PKCS5_PBKDF2_HMAC(chars, Int32(passwordCount), saltBytes, Int32(saltCount), Int32(iterations),
                                      ForeignDigests.handle(name), Int32(length), &output)
                }
            }
        }
        guard ok == 1 else { throw CryptoError.kdfFailed(OpenSSLErrorQueue.drain(fallback: "PBKDF2 failed")) }
        return output
    }
}

/// The digests the foreign formulas use, fetched once.
enum ForeignDigests {
    static let md5 = FetchedAlgorithm.digest("MD5")
    static let sha1 = FetchedAlgorithm.digest("SHA1")
    static let sha512 = FetchedAlgorithm.digest("SHA512")

    static func handle(_ name: String) -> OpaquePointer {
        switch name {
        case "MD5": return md5.handle
        case "SHA1": return sha1.handle
        case "SHA512": return sha512.handle
        default: return Algorithms.sha256.handle
        }
    }
}
