import AuthCore
import Crypto
import ProviderKit
import WireFormats

/// A token whose signature, issuer, audience, times and nonce all passed the provider's policy.
public struct VerifiedToken: Sendable, Equatable {
    /// Every claim, for the provider's own reading (email, profile) and `rawUserInfo`.
    public var claims: JSONObject
    /// The `sub`; never nil when the policy requires a subject.
    public var subject: String?
    public var issuer: String
    /// The configured client ID the token was issued to (see `ClaimChecks.audience`).
    public var audience: String
    /// `iat` and `exp`, in seconds.
    public var issuedAt: Int64
    public var expiresAt: Int64
    /// The key that signed it, by id and algorithm (for the log, never for trust decisions).
    public var keyId: String
    public var algorithm: SignatureAlgorithm
}

/// Verifies a provider's signed tokens against its `TokenPolicy`, in a fixed order:
/// raw nonce (before any I/O) → compact JWS → algorithm pinned → key by `kid` → key's algorithm → signature →
/// payload → `sub` → `iss` → `aud` → `exp`/`iat`/`nbf` with skew → max age → nonce claim → single use.
///
/// Every refusal is a `CredentialRefusal` naming the failed check, built in `TokenPolicy.refusal(for:)`. The
/// checks are pure; the side effects (fetching keys, recording the nonce) happen here only.
public struct FederatedTokenVerifier: Sendable {
    public let policy: TokenPolicy
    let keys: any SigningKeySource
    let time: any TimeSource
    let ledger: (any NonceLedger)?

    /// - Precondition: a policy with a nonce rule comes with a ledger (single use is not optional).
    public init(policy: TokenPolicy, keys: any SigningKeySource, time: any TimeSource, ledger: (any NonceLedger)? = nil) {
        precondition(policy.nonce == nil || ledger != nil, "a nonce rule needs a NonceLedger for single use")
        self.policy = policy
        self.keys = keys
        self.time = time
        self.ledger = ledger
    }

    /// Verifies `compact` and, under a nonce rule, binds it to `rawNonce` and consumes the nonce: a second
    /// token with the same nonce is refused as a replay, across restarts and instances sharing the ledger.
    ///
    /// Throws `CredentialRefusal`, or the ledger's own error when the nonce could not be recorded.
    public func verify(_ compact: String, rawNonce: String? = nil) async throws -> VerifiedToken {
        let token: VerifiedToken, nonce: String?
        do { (token, nonce) = try await checked(compact, rawNonce: rawNonce) } catch { throw policy.refusal(for: error) }
        if let nonce, let ledger {
            // The record may go once the token could no longer pass the expiry check anyway.
            let forgetAt = (token.expiresAt + policy.clockSkewSeconds) * 1000
            guard try await ledger.consume(SHA256.hash(nonce), expiresAt: forgetAt) else {
                throw policy.refusal(for: .replay)
            }
        }
        return token
    }

    private func checked(_ compact: String, rawNonce: String?) async throws(TokenFailure) -> (VerifiedToken, String?) {
        let nonce = try policy.nonce.flatMap { rule throws(TokenFailure) in try NonceChecks.rawNonce(rawNonce, rule) }
        guard let jws = try? CompactJWS(parsing: compact) else { throw .notCompactJWS }
        guard let algorithm = SignatureAlgorithm(rawValue: jws.header.alg), policy.algorithms.contains(algorithm) else {
            throw .algorithmNotAllowed(jws.header.alg)
        }
        guard let kid = jws.header.kid, !kid.isEmpty else { throw .missingKeyId }
        let key = try await publishedKey(kid)
        guard SignatureAlgorithm(of: key) == algorithm else {
            throw .algorithmDoesNotMatchKey(token: jws.header.alg, key: SignatureAlgorithm(of: key))
        }
        guard jws.isSignatureValid(using: key) else { throw .badSignature }
        guard case .object(let claims)? = try? JSONParser.parse(jws.payloadBytes) else { throw .payloadNotObject }
        let subject = try ClaimChecks.subject(claims, policy)
        let issuer = try ClaimChecks.issuer(claims, policy)
        let audience = try ClaimChecks.audience(claims, policy)
        let (issuedAt, expiresAt) = try ClaimChecks.times(claims, policy, now: time.nowSeconds)
        if let rule = policy.nonce { try NonceChecks.claim(claims, raw: nonce, rule) }
        let token = VerifiedToken(claims: claims, subject: subject, issuer: issuer, audience: audience, issuedAt: issuedAt,
                                  expiresAt: expiresAt, keyId: kid, algorithm: algorithm)
        return (token, nonce)
    }

    private func publishedKey(_ kid: String) async throws(TokenFailure) -> VerificationKey {
        do { return try await keys.key(id: kid) } catch {
            switch error {
            case .unknownKey: throw .unknownKey
            case .unavailable: throw .keysUnavailable
            }
        }
    }
}
