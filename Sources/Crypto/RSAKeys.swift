import COpenSSL

/// Limits on RSA keys this module accepts.
enum RSAPolicy {
    /// Smaller moduli are refused: 2048 bits is the floor every identity provider and NIST still accept.
    static let minimumBits = 2048
    /// Larger moduli are refused so a hostile JWKS cannot make every verification arbitrarily slow.
    static let maximumBits = 8192

    static func check(_ key: EVPKey) throws {
        guard key.baseID == EVP_PKEY_RSA else { throw CryptoError.invalidKey("not an RSA key") }
        guard (minimumBits...maximumBits).contains(key.bits) else {
            throw CryptoError.invalidKey("RSA modulus of \(key.bits) bits is outside \(minimumBits)...\(maximumBits)")
        }
        guard let exponent = key.bigNumber(OSSL_PKEY_PARAM_RSA_E), let last = exponent.last, last & 1 == 1,
              exponent != [1]
        else {
            throw CryptoError.invalidKey("RSA public exponent must be odd and greater than 1")
        }
    }
}

/// An RSA private key for signing RS256 tokens and self-signed certificates.
public final class RSAPrivateKey: @unchecked Sendable {
    let key: EVPKey
    /// Signing contexts initialised once and reused (see `RSAContextPool`).
    private let signers: RSAContextPool

    /// The matching public key, holding no private material.
    public let publicKey: RSAPublicKey

    init(key: EVPKey) throws {
        try RSAPolicy.check(key)
        self.key = key
        self.signers = RSAContextPool(key: key, operation: .sign)
        self.publicKey = try RSAPublicKey(key: key.publicOnly())
    }

    /// Generates a fresh key with public exponent 65537.
    public static func generate(bits: Int = 2048) throws -> RSAPrivateKey {
        guard (RSAPolicy.minimumBits...RSAPolicy.maximumBits).contains(bits) else {
            throw CryptoError.invalidInput("RSA key size \(bits) is outside \(RSAPolicy.minimumBits)...\(RSAPolicy.maximumBits)")
        }
        guard let generated = shim_EVP_RSA_gen(UInt32(bits)) else { throw OpenSSLErrorQueue.error("EVP_RSA_gen") }
        return try RSAPrivateKey(key: EVPKey(taking: generated))
    }

    /// Loads a key from PKCS#8 "PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY" PEM, the two forms key tools emit.
    /// Encrypted PEM is refused.
    public convenience init(pem: String) throws {
        try self.init(key: PEM.readPrivateKey(pem))
    }

    /// Builds a key from its JWK components (RFC 7518 §6.3: all big-endian, `qi` being the CRT coefficient).
    convenience init(modulus: [UInt8], publicExponent: [UInt8], privateExponent: [UInt8], prime1: [UInt8], prime2: [UInt8],
         exponent1: [UInt8], exponent2: [UInt8], coefficient: [UInt8]) throws {
        let parameters = try KeyParameters()
        try parameters.addNumber(OSSL_PKEY_PARAM_RSA_N, bigEndian: modulus)
        try parameters.addNumber(OSSL_PKEY_PARAM_RSA_E, bigEndian: publicExponent)
        try parameters.addNumber(OSSL_PKEY_PARAM_RSA_D, bigEndian: privateExponent)
        try parameters.addNumber("rsa-factor1", bigEndian: prime1)
        try parameters.addNumber("rsa-factor2", bigEndian: prime2)
        try parameters.addNumber("rsa-exponent1", bigEndian: exponent1)
        try parameters.addNumber("rsa-exponent2", bigEndian: exponent2)
        try parameters.addNumber("rsa-coefficient1", bigEndian: coefficient)
        let key = try parameters.makeKey(type: "RSA", selection: shim_EVP_PKEY_KEYPAIR())
        try self.init(key: key)
    }

    /// The key as unencrypted PKCS#8 "PRIVATE KEY" PEM, for storing in the gateway's key table.
    public func pkcs8PEM() throws -> String {
        try PEM.privateKeyPEM(key)
    }

    /// An RSASSA-PKCS1-v1_5 signature over SHA-256(`message`), the RS256 algorithm of JWS.
    /// Deterministic: the same key and message always give the same signature.
    public func signSHA256(_ message: [UInt8]) throws -> [UInt8] {
        try signers.signSHA256(message)
    }
}

/// An RSA public key for verifying RS256 signatures from identity providers or from this gateway.
public final class RSAPublicKey: @unchecked Sendable {
    let key: EVPKey
    /// Verification contexts initialised once and reused (see `RSAContextPool`).
    private let verifiers: RSAContextPool

    /// The modulus `n`, big-endian, without leading zero bytes (the JWK `n`).
    public let modulus: [UInt8]
    /// The public exponent `e`, big-endian, without leading zero bytes (the JWK `e`).
    public let exponent: [UInt8]

    init(key: EVPKey) throws {
        try RSAPolicy.check(key)
        guard let modulus = key.bigNumber(OSSL_PKEY_PARAM_RSA_N), let exponent = key.bigNumber(OSSL_PKEY_PARAM_RSA_E)
        else {
            throw CryptoError.invalidKey("RSA key without n and e")
        }
        self.key = key
        self.verifiers = RSAContextPool(key: key, operation: .verify)
        self.modulus = modulus
        self.exponent = exponent
    }

    /// Loads SPKI "PUBLIC KEY" PEM, or PKCS#1 "RSA PUBLIC KEY" PEM.
    public convenience init(pem: String) throws {
        try self.init(key: PEM.readPublicKey(pem, allowPKCS1RSA: true))
    }

    /// Builds a key from a JWK's `n` and `e` (big-endian; leading zero bytes are tolerated).
    public convenience init(modulus: [UInt8], exponent: [UInt8]) throws {
        guard !modulus.isEmpty, !exponent.isEmpty else { throw CryptoError.invalidKey("empty RSA modulus or exponent") }
        let parameters = try KeyParameters()
        try parameters.addNumber(OSSL_PKEY_PARAM_RSA_N, bigEndian: modulus)
        try parameters.addNumber(OSSL_PKEY_PARAM_RSA_E, bigEndian: exponent)
        try self.init(key: parameters.makeKey(type: "RSA", selection: shim_EVP_PKEY_PUBLIC_KEY()))
    }

    /// The key as SPKI "PUBLIC KEY" PEM.
    public func spkiPEM() throws -> String {
        try PEM.publicKeyPEM(key)
    }

    /// Whether `signature` is a valid RSASSA-PKCS1-v1_5 SHA-256 signature of `message` under this key.
    /// Malformed signatures are simply `false`.
    public func verifySHA256(signature: [UInt8], message: [UInt8]) -> Bool {
        verifiers.verifySHA256(signature: signature, message: message)
    }
}
