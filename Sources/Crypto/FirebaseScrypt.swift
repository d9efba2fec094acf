import COpenSSL

/// Firebase's modified scrypt, needed to verify password hashes imported from a Firebase project.
///
/// Firebase derives a key with scrypt(password, salt || saltSeparator, N = 2^memoryCost, r = rounds, p = 1) and
/// stores AES-256-CTR(key[0..<32], IV = 0).encrypt(signerKey). The signer key, salt separator, rounds and memory
/// cost are the project's hash parameters.
public enum FirebaseScrypt {
    /// The ranges Firebase accepts for its hash parameters; anything else cannot come from a real export.
    static let roundsRange = 1...8
    static let memoryCostRange = 1...14

    /// The stored hash for `password` under the project's parameters.
    public static func hash(password: [UInt8], salt: [UInt8], saltSeparator: [UInt8], signerKey: [UInt8],
                            rounds: Int, memoryCost: Int) throws -> [UInt8] {
        guard roundsRange.contains(rounds) else { throw CryptoError.invalidInput("rounds must be in 1...8") }
        guard memoryCostRange.contains(memoryCost) else {
            throw CryptoError.invalidInput("memory cost must be in 1...14")
        }
        guard !signerKey.isEmpty, signerKey.count < Int(Int32.max) else {
            throw CryptoError.invalidInput("signer key must not be empty")
        }
        let derived = try Scrypt.derive(password: password, salt: salt + saltSeparator, n: 1 << UInt64(memoryCost),
                                        r: UInt64(rounds), p: 1, length: 64)
        return try encryptCTR(signerKey, key: Array(derived[..<32]))
    }

    /// Whether `password` produces `expectedHash`, compared in constant time. Invalid parameters are `false`.
    public static func verify(password: [UInt8], salt: [UInt8], saltSeparator: [UInt8], signerKey: [UInt8],
                              rounds: Int, memoryCost: Int, expectedHash: [UInt8]) -> Bool {
        guard let actual = try? hash(password: password, salt: salt, saltSeparator: saltSeparator,
                                     signerKey: signerKey, rounds: rounds, memoryCost: memoryCost)
        else {
            return false
        }
        return constantTimeEquals(actual, expectedHash)
    }

    private static func encryptCTR(_ plaintext: [UInt8], key: [UInt8]) throws -> [UInt8] {
        let context = try CipherContext()
        let iv = [UInt8](repeating: 0, count: 16)
        guard EVP_EncryptInit_ex2(context.pointer, Algorithms.aes256CTR.handle, key, iv, nil) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_EncryptInit_ex2(AES-256-CTR)")
        }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var length: Int32 = 0
        var finalLength: Int32 = 0
        guard EVP_EncryptUpdate(context.pointer, &output, &length, plaintext, Int32(plaintext.count)) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_EncryptUpdate(AES-256-CTR)")
        }
        let finished = output.withUnsafeMutableBufferPointer { buffer in
            EVP_EncryptFinal_ex(context.pointer, buffer.baseAddress! + Int(length), &finalLength)
        }
        guard finished == 1 else { throw OpenSSLErrorQueue.error("EVP_EncryptFinal_ex(AES-256-CTR)") }
        return Array(output[..<Int(length + finalLength)])
    }
}
