import Crypto
import WireFormats

/// Mints and checks the gateway's own ID tokens (RS256 with a `kid`).
///
/// Checking here covers the token alone (signature, issuer, audience, time); whether the user still exists,
/// is enabled and has not revoked tokens is the session layer's job, because it needs the store.
public struct IDTokenSigner: Sendable {
    public let settings: TokenSettings
    public let keyRing: KeyRing
    public let time: any TimeSource
    /// Checks already passed, so a token sent again skips the RSA verification and claims parse.
    public let verifiedTokens: VerifiedTokenCache

    public init(settings: TokenSettings, keyRing: KeyRing, time: any TimeSource,
                verifiedTokens: VerifiedTokenCache = VerifiedTokenCache()) {
        self.settings = settings
        self.keyRing = keyRing
        self.time = time
        self.verifiedTokens = verifiedTokens
    }

    /// A verified ID token's claims.
    public struct Verified: Sendable {
        public let claims: JSONObject
        public let localId: String
        public let issuedAt: Int64
        public let expiresAt: Int64
        public let authTime: Int64
        public let signInProvider: String?
        public let tenantId: String?
    }

    /// Signs `claims` with the active key. Throws if no key is active (a start-up invariant).
    public func sign(_ claims: JSONObject) throws -> String {
        guard let key = keyRing.signingKey(at: time.nowSeconds) else {
            throw CryptoError.invalidKey("no active signing key")
        }
        return try JWS.signRS256(payload: JSONSerializer.bytes(.object(claims)), key: key.privateKey, kid: key.record.kid)
    }

    /// Verifies signature, `kid`, `alg`, `iss`, `aud`, `sub`, `iat` and `exp`.
    /// - Throws: `INVALID_ID_TOKEN` for anything malformed or not ours, `TOKEN_EXPIRED` once `exp` has passed.
    ///
    /// A token that passed before (same bytes, see `VerifiedTokenCache`) is not verified again; its key must still
    /// be published and be the same key, and the time checks run again.
    public func verify(_ token: String) throws(AuthError) -> Verified {
        let now = time.nowSeconds
        let digest = SHA256.hash(token)
        if let remembered = verifiedTokens.entry(for: digest),
           keyRing.verificationKey(kid: remembered.kid, at: now)?.publicKey === remembered.key {
            try checkTimes(remembered.verified, now: now)
            return remembered.verified
        }
        guard let jws = try? CompactJWS(parsing: token) else { throw .invalidIdToken }
        guard jws.header.alg == "RS256", let kid = jws.header.kid,
              let key = keyRing.verificationKey(kid: kid, at: now),
              jws.isSignatureValid(using: .rs256(key.publicKey))
        else { throw .invalidIdToken }
        guard case .object(let claims)? = try? JSONParser.parse(jws.payloadBytes) else { throw .invalidIdToken }
        guard claims["iss"]?.stringValue == settings.issuer,
              claims["aud"]?.stringValue == settings.projectId,
              let sub = claims["sub"]?.stringValue, !sub.isEmpty, sub.utf8.count <= 128,
              let iat = claims["iat"]?.intValue, let exp = claims["exp"]?.intValue
        else { throw .invalidIdToken }
        let firebase = claims["firebase"]?.objectValue
        let verified = Verified(
            claims: claims, localId: sub, issuedAt: iat, expiresAt: exp,
            authTime: claims["auth_time"]?.intValue ?? iat,
            signInProvider: firebase?["sign_in_provider"]?.stringValue,
            tenantId: firebase?["tenant"]?.stringValue)
        try checkTimes(verified, now: now)
        verifiedTokens.store(.init(verified: verified, kid: kid, key: key.publicKey), for: digest)
        return verified
    }

    /// The checks that depend on the time: issued no later than now (with skew), not yet expired.
    private func checkTimes(_ verified: Verified, now: Int64) throws(AuthError) {
        guard verified.issuedAt <= now + settings.clockSkew else { throw .invalidIdToken }
        guard verified.expiresAt > now - settings.clockSkew else { throw .tokenExpired }
    }
}
