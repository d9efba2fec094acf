import Crypto
import WireFormats

/// The nonce rule's two halves: the request's raw nonce is judged before any I/O (a request that cannot pass
/// costs no key fetch), the token's claim after its signature and times verified.
enum NonceChecks {
    /// The raw nonce to bind the token to, or nil when the rule allows none. Throws for a missing one the rule
    /// requires, or one outside the accepted length.
    static func rawNonce(_ raw: String?, _ rule: NonceRule) throws(TokenFailure) -> String? {
        guard let raw, !raw.isEmpty else {
            if rule.presence == .required { throw .nonceMissing }
            return nil
        }
        guard rule.rawLength.contains(raw.count) else { throw .nonceLength(rule.rawLength) }
        return raw
    }

    /// Checks the token's `nonce` claim against the raw nonce: its lowercase SHA-256 hex, or (where the rule
    /// allows) the raw value. Both or neither: with no raw nonce the token must not carry a claim, unless the
    /// rule checks the claim only when a nonce is sent.
    static func claim(_ claims: JSONObject, raw: String?, _ rule: NonceRule) throws(TokenFailure) {
        let claim = claims["nonce"]?.stringValue
        guard let raw else {
            if claims["nonce"] != nil && rule.presence != .checkedWhenSent { throw .nonceMissing }
            return
        }
        guard let claim else { throw .nonceClaimMissing }
        let presented = Array(claim.utf8)
        if constantTimeEquals(presented, Array(SHA256.hexDigest(raw).utf8)) { return }
        if rule.acceptsRawClaim && constantTimeEquals(presented, Array(raw.utf8)) { return }
        throw .nonceMismatch
    }
}
