import WireFormats
/// A public JSON Web Key (RFC 7517), as published in a JWKS document. Private members are never modelled.
public struct JWK: Codable, Sendable, Equatable {
    /// Key type: "RSA" or "EC" are usable; others are carried but refused by `verificationKey()`.
    public var kty: String
    /// Key identifier, matched against a token header's `kid`.
    public var kid: String?
    /// Intended algorithm; when present it must agree with `kty`/`crv`.
    public var alg: String?
    /// Intended use ("sig" or "enc"); informational only.
    public var use: String?
    /// RSA modulus, base64url.
    public var n: String?
    /// RSA public exponent, base64url.
    public var e: String?
    /// EC curve name ("P-256").
    public var crv: String?
    /// EC x coordinate, base64url.
    public var x: String?
    /// EC y coordinate, base64url.
    public var y: String?

    /// A JWK from its members, as when decoded from a JWKS document.
    public init(kty: String, kid: String? = nil, alg: String? = nil, use: String? = nil, n: String? = nil,
                e: String? = nil, crv: String? = nil, x: String? = nil, y: String? = nil) {
        self.kty = kty
        self.kid = kid
        self.alg = alg
        self.use = use
        self.n = n
        self.e = e
        self.crv = crv
        self.x = x
        self.y = y
    }

    /// Publishes an RSA public key.
    public init(rsa: RSAPublicKey, kid: String?, alg: String? = "RS256", use: String? = "sig") {
        self.init(kty: "RSA", kid: kid, alg: alg, use: use,
                  n: Base64URL.encode(rsa.modulus), e: Base64URL.encode(rsa.exponent))
    }

    /// Publishes a P-256 public key.
    public init(p256: P256PublicKey, kid: String?, alg: String? = "ES256", use: String? = "sig") {
        self.init(kty: "EC", kid: kid, alg: alg, use: use, crv: "P-256",
                  x: Base64URL.encode(p256.x), y: Base64URL.encode(p256.y))
    }

    /// The key this JWK describes, typed by its algorithm.
    ///
    /// The algorithm is decided by `kty` (and `crv`), never by a token header; an `alg` member, when present,
    /// must agree. `use` is not checked, so callers that care about "enc" keys must filter them.
    public func verificationKey() throws -> VerificationKey {
        switch kty {
        case "RSA":
            guard alg == nil || alg == "RS256" else { throw CryptoError.invalidKey("RSA JWK with alg \(alg ?? "")") }
            guard let n, let e, let modulus = Base64URL.decode(n), let exponent = Base64URL.decode(e) else {
                throw CryptoError.invalidKey("RSA JWK needs base64url n and e")
            }
            return .rs256(try RSAPublicKey(modulus: modulus, exponent: exponent))
        case "EC":
            guard crv == "P-256" else { throw CryptoError.invalidKey("EC JWK on unsupported curve \(crv ?? "none")") }
            guard alg == nil || alg == "ES256" else { throw CryptoError.invalidKey("P-256 JWK with alg \(alg ?? "")") }
            guard let x, let y, let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y) else {
                throw CryptoError.invalidKey("EC JWK needs base64url x and y")
            }
            return .es256(try P256PublicKey(x: xBytes, y: yBytes))
        default:
            throw CryptoError.invalidKey("unsupported JWK kty \(kty)")
        }
    }
}

/// A JWKS document: `{"keys":[...]}`.
public struct JWKSet: Codable, Sendable, Equatable {
    /// The keys, in document order.
    public var keys: [JWK]

    /// A set holding `keys`.
    public init(keys: [JWK]) {
        self.keys = keys
    }

    /// The first key whose `kid` is `kid`, or `nil`.
    public func key(withID kid: String) -> JWK? {
        keys.first { $0.kid == kid }
    }
}
