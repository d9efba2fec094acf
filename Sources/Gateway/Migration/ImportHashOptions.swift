import AuthCore
import Crypto
import WireFormats

/// The hash configuration of an import: the top-level fields of `accounts:batchCreate` (`hashAlgorithm`,
/// `signerKey`, `saltSeparator`, `rounds`, `memoryCost`, `cpuMemCost`, `parallelization`, `blockSize`, `dkLen`,
/// `passwordHashOrder`), checked with the ranges Firebase enforces, so a hash that could never have come from a
/// real system, or that would cost minutes to verify, is refused before any user is written.
///
/// The same fields name a configuration in the CLI's flags and in the export's extension, so every entry point
/// reads them here.
enum ImportHashOptions {
    /// scrypt settings above this much memory per verification are refused (Firebase's own scrypt needs 16 MiB).
    static let maxScryptMemory: UInt64 = 256 << 20

    /// The configuration in `body`, or nil when it names no algorithm (then users must not carry hashes).
    static func parse(_ body: RequestBody) throws -> ForeignHashParameters? {
        // Every field is type-checked, named algorithm or not, so a malformed one is never silently ignored.
        let order = try body.enumName("passwordHashOrder", WireEnums.passwordHashOrder)
        let saltFirst: Bool?
        switch order {
        case nil, "UNSPECIFIED_ORDER"?: saltFirst = nil
        case "SALT_AND_PASSWORD"?: saltFirst = true
        case "PASSWORD_AND_SALT"?: saltFirst = false
        case let other?:
            throw WireError.invalidPayload("Invalid value at 'password_hash_order' (TYPE_ENUM), \"\(other.prefix(40))\"",
                                           reason: "invalid")
        }
        let signerKey = try bytes(body, "signerKey", code: .invalidHashKey)
        let saltSeparator = try bytes(body, "saltSeparator", code: .invalidHashSaltSeparator)
        let numbers = try ["rounds", "memoryCost", "cpuMemCost", "parallelization", "blockSize", "dkLen"].map { try int(body, $0) }
        guard let name = try body.string("hashAlgorithm") else { return nil }
        guard let algorithm = ForeignHashAlgorithm(rawValue: name) else {
            throw AuthError(.invalidHashAlgorithm, String(name.prefix(40)))
        }
        var p = ForeignHashParameters(algorithm: algorithm, signerKey: signerKey, saltSeparator: saltSeparator,
                                      rounds: numbers[0], saltFirst: saltFirst)
        switch algorithm {
        case .firebaseScrypt:
            p.memoryCost = numbers[1]
            guard !p.signerKey.isEmpty else { throw AuthError(.invalidHashKey, "SCRYPT needs signerKey") }
            guard (1...8).contains(p.rounds) else { throw AuthError(.invalidHashRounds, "SCRYPT rounds must be 1 to 8") }
            guard (1...14).contains(p.memoryCost) else {
                throw AuthError(.invalidHashMemoryCost, "SCRYPT memoryCost must be 1 to 14")
            }
        case .standardScrypt:
            (p.memoryCost, p.parallelization, p.blockSize, p.derivedKeyLength) = (numbers[2], numbers[3], numbers[4], numbers[5])
            try checkStandardScrypt(p)
        case .bcrypt:
            break
        case .pbkdf2SHA256, .pbkdfSHA1:
            guard (0...120_000).contains(p.rounds) else { throw AuthError(.invalidHashRounds, "rounds must be 0 to 120000") }
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5:
            guard !p.signerKey.isEmpty else { throw AuthError(.invalidHashKey, "\(name) needs signerKey") }
        case .md5:
            guard (0...8192).contains(p.rounds) else { throw AuthError(.invalidHashRounds, "MD5 rounds must be 0 to 8192") }
        case .sha1, .sha256, .sha512:
            guard (1...8192).contains(p.rounds) else { throw AuthError(.invalidHashRounds, "\(name) rounds must be 1 to 8192") }
        }
        return p
    }

    /// The same fields as a JSON object (the export's extension and the CLI's summary).
    static func render(_ p: ForeignHashParameters) -> JSONObject {
        var fields: JSONObject = ["hashAlgorithm": .string(p.algorithm.rawValue)]
        switch p.algorithm {
        case .firebaseScrypt:
            fields["signerKey"] = .string(Base64.encode(p.signerKey))
            if !p.saltSeparator.isEmpty { fields["saltSeparator"] = .string(Base64.encode(p.saltSeparator)) }
            fields["rounds"] = .int(Int64(p.rounds))
            fields["memoryCost"] = .int(Int64(p.memoryCost))
        case .standardScrypt:
            fields["cpuMemCost"] = .int(Int64(p.memoryCost))
            fields["parallelization"] = .int(Int64(p.parallelization))
            fields["blockSize"] = .int(Int64(p.blockSize))
            fields["dkLen"] = .int(Int64(p.derivedKeyLength))
        case .bcrypt:
            break
        case .pbkdf2SHA256, .pbkdfSHA1:
            fields["rounds"] = .int(Int64(p.rounds))
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5:
            fields["signerKey"] = .string(Base64.encode(p.signerKey))
            fields["passwordHashOrder"] = .string(p.saltFirst ? "SALT_AND_PASSWORD" : "PASSWORD_AND_SALT")
        case .sha512, .sha256, .sha1, .md5:
            fields["rounds"] = .int(Int64(p.rounds))
            fields["passwordHashOrder"] = .string(p.saltFirst ? "SALT_AND_PASSWORD" : "PASSWORD_AND_SALT")
        }
        return fields
    }

    private static func checkStandardScrypt(_ p: ForeignHashParameters) throws {
        let n = p.memoryCost
        guard n > 1, n & (n - 1) == 0 else { throw AuthError(.invalidHashMemoryCost, "cpuMemCost must be a power of two") }
        guard (1...16).contains(p.parallelization) else {
            throw AuthError(.invalidHashParallelization, "parallelization must be 1 to 16")
        }
        guard (1...64).contains(p.blockSize) else { throw AuthError(.invalidHashBlockSize, "blockSize must be 1 to 64") }
        guard (1...1024).contains(p.derivedKeyLength) else {
            throw AuthError(.invalidHashDerivedKeyLength, "dkLen must be 1 to 1024")
        }
        let memory = UInt64(128 * p.blockSize) * (UInt64(n) + UInt64(p.parallelization))
        guard memory <= maxScryptMemory else {
            throw AuthError(.invalidHashMemoryCost, "one verification would need more than 256 MiB")
        }
    }

    private static func int(_ body: RequestBody, _ key: String) throws -> Int {
        guard let value = try body.int64(key) else { return 0 }
        guard let small = Int32(exactly: value) else {
            throw WireError.invalidPayload("Invalid value at '\(RequestBody.snakeCase(key))' (TYPE_INT32), \(value)",
                                           reason: "invalid")
        }
        return Int(small)
    }

    private static func bytes(_ body: RequestBody, _ key: String, code: AuthError.Code) throws -> [UInt8] {
        guard let text = try body.string(key), !text.isEmpty else { return [] }
        guard let bytes = Base64.decode(text) else { throw AuthError(code, "\(key) is not base64") }
        return bytes
    }
}
