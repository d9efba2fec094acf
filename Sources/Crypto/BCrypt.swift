import CXCrypt

/// bcrypt, through Debian's libxcrypt: only to verify hashes imported from another system (the gateway's own
/// hash is scrypt). The stored value is the whole modular-crypt string, e.g. `$2a$10$<22 salt><31 hash>`.
public enum BCrypt {
    /// The `$2a$`, `$2b$` and `$2y$` prefixes; other crypt(3) methods (DES, MD5-crypt, SHA-crypt) are refused so
    /// an import labelled BCRYPT cannot smuggle in a weaker scheme.
    static let prefixes: [[UInt8]] = [Array("$2a$".utf8), Array("$2b$".utf8), Array("$2y$".utf8)]
    /// Each step of the cost doubles the work: 16 is about four seconds on one core. Higher costs would let one
    /// imported hash hold a KDF thread for minutes per sign-in attempt.
    public static let maxCost = 16

    /// The cost (log2 of the rounds) written in a bcrypt string, or nil when it is not one.
    public static func cost(of setting: [UInt8]) -> Int? {
        guard setting.count >= 29, prefixes.contains(where: { setting.starts(with: $0) }),
              (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(setting[4]),
              (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(setting[5]), setting[6] == UInt8(ascii: "$")
        else { return nil }
        return Int(setting[4] - UInt8(ascii: "0")) * 10 + Int(setting[5] - UInt8(ascii: "0"))
    }

    /// The modular-crypt string `password` gives under `setting` (a stored bcrypt string: its cost and salt are
    /// reused, the hash part ignored).
    public static func hash(password: [UInt8], setting: [UInt8]) throws -> [UInt8] {
        guard setting.count < Int(CRYPT_OUTPUT_SIZE), let cost = cost(of: setting) else {
            throw CryptoError.invalidInput("not a bcrypt hash")
        }
        guard cost <= maxCost else { throw CryptoError.invalidInput("bcrypt cost above \(maxCost)") }
        // crypt(3) reads NUL-terminated strings: a password holding NUL would be cut short, so it cannot match.
        guard !password.contains(0), !setting.contains(0) else { throw CryptoError.invalidInput("NUL in input") }
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer { data.deallocate() }
        // libxcrypt requires the scratch area zeroed before first use.
        UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
        let result: [UInt8]? = (password + [0]).withUnsafeBufferPointer { phrase in
            (setting + [0]).withUnsafeBufferPointer { settingBytes in
                phrase.baseAddress!.withMemoryRebound(to: CChar.self, capacity: phrase.count) { phraseChars in
                    settingBytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: settingBytes.count) { settingChars -> [UInt8]? in
                        guard let output = crypt_rn(phraseChars, settingChars, data, Int32(MemoryLayout<crypt_data>.size)),
                              output.pointee != 0x2A /* "*": libxcrypt's failure token */ else { return nil }
                        return Array(String(cString: output).utf8)
                    }
                }
            }
        }
        guard let result else { throw CryptoError.invalidInput("libxcrypt refused the bcrypt setting") }
        return result
    }
}
