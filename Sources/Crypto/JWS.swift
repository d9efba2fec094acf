import WireFormats
import WireFormats

/// The protected header of a JWS, limited to the fields the gateway reads or writes.
public struct JOSEHeader: Sendable, Equatable {
    /// The signature algorithm the token claims. Never trusted on its own: see `CompactJWS.isSignatureValid`.
    public var alg: String
    /// The key identifier used to pick a key from a JWKS.
    public var kid: String?
    /// The media type, "JWT" for ID tokens.
    public var typ: String?

    /// A header with the given members; nil members are omitted when encoded.
    public init(alg: String, kid: String? = nil, typ: String? = nil) {
        self.alg = alg
        self.kid = kid
        self.typ = typ
    }
}

extension JOSEHeader {
    /// `{"alg":…,"kid":…,"typ":…}`: members in sorted order, absent ones omitted.
    var serialized: [UInt8] {
        var members: JSONObject = ["alg": .string(alg)]
        if let kid { members["kid"] = .string(kid) }
        if let typ { members["typ"] = .string(typ) }
        return JSONSerializer.bytes(.object(members))
    }
}

/// Which key verifies a token, and therefore which algorithm the token must use.
public enum VerificationKey: Sendable {
    /// An RSA key: only RS256 tokens can verify.
    case rs256(RSAPublicKey)
    /// A P-256 key: only ES256 tokens can verify.
    case es256(P256PublicKey)

    /// The JWS `alg` this key verifies.
    public var algorithm: String {
        switch self {
        case .rs256: "RS256"
        case .es256: "ES256"
        }
    }
}

/// A parsed JWS in compact serialization (`header.payload.signature`), not yet verified.
public struct CompactJWS: Sendable {
    /// The decoded protected header. Its `alg` is a claim, not a fact, until `isSignatureValid` says so.
    public let header: JOSEHeader
    /// The header's JSON bytes as sent.
    public let headerBytes: [UInt8]
    /// The payload bytes (usually JWT claims JSON), unverified.
    public let payloadBytes: [UInt8]
    /// The decoded signature: 256 bytes for RS256 with a 2048-bit key, 64 bytes for ES256.
    public let signature: [UInt8]
    /// The ASCII bytes `b64header.b64payload` exactly as received: what the signature covers.
    public let signingInput: [UInt8]

    /// Splits and decodes a compact JWS. Throws `CryptoError.invalidInput` unless there are exactly three
    /// base64url segments and the header is a JSON object with a string `alg`. Headers with `crit` are refused,
    /// because this implementation understands no extensions (RFC 7515 §4.1.11).
    public init(parsing compact: String) throws {
        // Byte-level: splitting the String and searching it through Foundation cost a fifth of an ID-token check.
        let characters = Array(compact.utf8)
        var dots: [Int] = []
        var isPadded = false
        for (index, character) in characters.enumerated() {
            if character == UInt8(ascii: ".") {
                if dots.count < 3 { dots.append(index) }  // a third dot already means too many segments
            } else if character == UInt8(ascii: "=") {
                isPadded = true
            }
        }
        guard dots.count == 2 else { throw CryptoError.invalidInput("JWS must have three segments") }
        // RFC 7515 compact form is unpadded base64url: one token, one spelling.
        guard !isPadded else { throw CryptoError.invalidInput("JWS segments must not be padded") }
        guard dots[0] > 0 else { throw CryptoError.invalidInput("JWS header segment is empty") }
        guard let headerBytes = Base64URL.decode(characters[..<dots[0]]),
              let payloadBytes = Base64URL.decode(characters[(dots[0] + 1)..<dots[1]]),
              let signature = Base64URL.decode(characters[(dots[1] + 1)...])
        else {
            throw CryptoError.invalidInput("JWS segment is not base64url")
        }
        // The gateway's one JSON parser reads the header, as it reads the claims.
        guard case .object(let members)? = try? JSONParser.parse(headerBytes),
              let alg = members["alg"]?.stringValue else {
            throw CryptoError.invalidInput("JWS header is not a JSON object with a string alg")
        }
        guard members["crit"] == nil else { throw CryptoError.invalidInput("JWS header has unsupported crit extensions") }
        for name in ["kid", "typ"] where members[name].map({ $0.stringValue == nil && !$0.isNull }) == true {
            throw CryptoError.invalidInput("JWS header member \(name) must be a string")
        }
        let header = JOSEHeader(alg: alg, kid: members["kid"]?.stringValue, typ: members["typ"]?.stringValue)
        self.header = header
        self.headerBytes = headerBytes
        self.payloadBytes = payloadBytes
        self.signature = signature
        self.signingInput = Array(characters[..<dots[1]])
    }

    /// Whether the signature is valid under `key`. The header's `alg` must name exactly the key's algorithm
    /// (RS256 for RSA keys, ES256 for P-256 keys); the algorithm always comes from the key, so "none", HS256 and
    /// other substitutions are rejected.
    public func isSignatureValid(using key: VerificationKey) -> Bool {
        guard header.alg == key.algorithm else { return false }
        switch key {
        case .rs256(let publicKey):
            return publicKey.verifySHA256(signature: signature, message: signingInput)
        case .es256(let publicKey):
            return publicKey.verifySHA256(rawSignature: signature, message: signingInput)
        }
    }
}

/// Creates compact JWS strings signed by this gateway.
public enum JWS {
    /// Signs `payload` with RS256. The header is `{"alg":"RS256","kid":...,"typ":...}` with sorted keys and nil
    /// fields omitted.
    public static func signRS256(payload: [UInt8], key: RSAPrivateKey, kid: String?, typ: String? = "JWT") throws
        -> String
    {
        try sign(payload: payload, header: JOSEHeader(alg: "RS256", kid: kid, typ: typ)) { input in
            try key.signSHA256(input)
        }
    }

    /// Signs `payload` with ES256 (raw 64-byte `r || s` signature), header as for `signRS256`.
    public static func signES256(payload: [UInt8], key: P256PrivateKey, kid: String?, typ: String? = "JWT") throws
        -> String
    {
        try sign(payload: payload, header: JOSEHeader(alg: "ES256", kid: kid, typ: typ)) { input in
            try key.signSHA256(input)
        }
    }

    private static func sign(payload: [UInt8], header: JOSEHeader, signer: ([UInt8]) throws -> [UInt8]) throws
        -> String
    {
        // One buffer from start to end: the signing input is its first part, the signature is appended to it.
        let headerBytes = header.serialized
        var token: [UInt8] = []
        token.reserveCapacity((headerBytes.count + payload.count) * 4 / 3 + 400)
        Base64URL.append(headerBytes, to: &token)
        token.append(UInt8(ascii: "."))
        Base64URL.append(payload, to: &token)
        let signature = try signer(token)
        token.append(UInt8(ascii: "."))
        Base64URL.append(signature, to: &token)
        return String(decoding: token, as: UTF8.self)
    }
}
