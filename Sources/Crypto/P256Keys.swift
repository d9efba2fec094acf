import COpenSSL

/// Checks that a key is on NIST P-256, the only curve ES256 allows.
enum P256Policy {
    static let groupName = "prime256v1"
    static let coordinateByteCount = 32

    static func check(_ key: EVPKey) throws {
        guard key.baseID == EVP_PKEY_EC, key.utf8String(OSSL_PKEY_PARAM_GROUP_NAME) == groupName else {
            throw CryptoError.invalidKey("not a P-256 key")
        }
    }

    /// The public point's affine coordinates, each left-padded to 32 bytes.
    static func coordinates(of key: EVPKey) throws -> (x: [UInt8], y: [UInt8]) {
        guard let x = key.bigNumber(OSSL_PKEY_PARAM_EC_PUB_X), let y = key.bigNumber(OSSL_PKEY_PARAM_EC_PUB_Y),
              x.count <= coordinateByteCount, y.count <= coordinateByteCount
        else {
            throw CryptoError.invalidKey("P-256 key without a public point")
        }
        return (padded(x), padded(y))
    }

    private static func padded(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](repeating: 0, count: coordinateByteCount - bytes.count) + bytes
    }
}

/// A P-256 private key for ES256 signing (for example an Apple Sign in with Apple client-secret key).
public final class P256PrivateKey: @unchecked Sendable {
    let key: EVPKey

    /// The matching public key, holding no private material.
    public let publicKey: P256PublicKey

    init(key: EVPKey) throws {
        try P256Policy.check(key)
        self.key = key
        self.publicKey = try P256PublicKey(key: key.publicOnly())
    }

    /// Generates a fresh key.
    public static func generate() throws -> P256PrivateKey {
        guard let generated = shim_EVP_EC_gen(P256Policy.groupName) else {
            throw OpenSSLErrorQueue.error("EVP_EC_gen")
        }
        return try P256PrivateKey(key: EVPKey(taking: generated))
    }

    /// Loads PKCS#8 "PRIVATE KEY" PEM (what Apple's `.p8` downloads contain) or SEC1 "EC PRIVATE KEY" PEM.
    /// Keys on other curves and encrypted PEM are refused.
    public convenience init(pem: String) throws {
        try self.init(key: PEM.readPrivateKey(pem))
    }

    /// The key as unencrypted PKCS#8 "PRIVATE KEY" PEM.
    public func pkcs8PEM() throws -> String {
        try PEM.privateKeyPEM(key)
    }

    /// An ECDSA P-256 SHA-256 signature in JWS form: raw `r || s`, exactly 64 bytes. Randomised: two signatures
    /// of one message differ, and both verify.
    public func signSHA256(_ message: [UInt8]) throws -> [UInt8] {
        let der = try key.signSHA256(message)
        do {
            return try ECDSASignature.rawFromDER(der)
        } catch {
            throw CryptoError.signingFailed
        }
    }
}

/// A P-256 public key for verifying ES256 signatures.
public final class P256PublicKey: @unchecked Sendable {
    let key: EVPKey

    /// The public point's x coordinate, 32 bytes big-endian (the JWK `x`).
    public let x: [UInt8]
    /// The public point's y coordinate, 32 bytes big-endian (the JWK `y`).
    public let y: [UInt8]

    init(key: EVPKey) throws {
        try P256Policy.check(key)
        self.key = key
        (x, y) = try P256Policy.coordinates(of: key)
    }

    /// Loads SPKI "PUBLIC KEY" PEM.
    public convenience init(pem: String) throws {
        try self.init(key: PEM.readPublicKey(pem, allowPKCS1RSA: false))
    }

    /// Builds a key from a JWK's `x` and `y`, each exactly 32 bytes as RFC 7518 §6.2.1 requires.
    /// Points that are not on the curve are refused.
    public convenience init(x: [UInt8], y: [UInt8]) throws {
        guard x.count == P256Policy.coordinateByteCount, y.count == P256Policy.coordinateByteCount else {
            throw CryptoError.invalidKey("P-256 coordinates must be 32 bytes each")
        }
        let parameters = try KeyParameters()
        try parameters.addString(OSSL_PKEY_PARAM_GROUP_NAME, P256Policy.groupName)
        try parameters.addOctets(OSSL_PKEY_PARAM_PUB_KEY, [0x04] + x + y)
        try self.init(key: parameters.makeKey(type: "EC", selection: shim_EVP_PKEY_PUBLIC_KEY()))
    }

    /// The key as SPKI "PUBLIC KEY" PEM.
    public func spkiPEM() throws -> String {
        try PEM.publicKeyPEM(key)
    }

    /// Whether `rawSignature` (JWS `r || s`, exactly 64 bytes) is a valid ECDSA P-256 SHA-256 signature of
    /// `message`. Any other length, including DER, is `false`.
    public func verifySHA256(rawSignature: [UInt8], message: [UInt8]) -> Bool {
        guard let der = ECDSASignature.derFromRaw(rawSignature) else { return false }
        return key.verifySHA256(signature: der, message: message)
    }
}
