import WireFormats

/// The registered-claim checks on a token whose signature already verified: pure functions of the policy, the
/// claims and the clock, each throwing the one failure it exists for.
enum ClaimChecks {
    /// The `sub`, required non-empty when the policy says so.
    static func subject(_ claims: JSONObject, _ policy: TokenPolicy) throws(TokenFailure) -> String? {
        let subject = claims["sub"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        if policy.requiresSubject && subject == nil { throw .missingSubject }
        return subject
    }

    /// The `iss`, one of the policy's issuers (compared exactly: no trailing-slash or case folding).
    static func issuer(_ claims: JSONObject, _ policy: TokenPolicy) throws(TokenFailure) -> String {
        guard let issuer = claims["iss"]?.stringValue, policy.issuers.contains(issuer) else { throw .issuer }
        return issuer
    }

    /// The client the token was issued to, one of the policy's audiences.
    ///
    /// `aud` may be a string or an array (RFC 7519 §4.1.3). In an array every entry must be a configured
    /// audience: a token that also names a party we do not know may have been issued to that party (OpenID
    /// Connect Core §3.1.3.7, item 3). With several entries, `azp` must say which of them the token was issued
    /// to. With one audience `azp` is not consulted: Google-style tokens name the Android client there while
    /// `aud` is the server's client ID, and the audience check alone is what binds the token to this project.
    static func audience(_ claims: JSONObject, _ policy: TokenPolicy) throws(TokenFailure) -> String {
        switch claims["aud"] {
        case .string(let audience)?:
            guard policy.audiences.contains(audience) else { throw .audience }
            return audience
        case .array(let entries)?:
            let audiences = entries.compactMap(\.stringValue)
            guard audiences.count == entries.count, audiences.allSatisfy(policy.audiences.contains) else { throw .audience }
            if audiences.count == 1 { return audiences[0] }
            // Several audiences, or none: only an `azp` among them names a client (an empty array never does).
            guard let party = claims["azp"]?.stringValue, audiences.contains(party) else { throw .audience }
            return party
        default:
            throw .audience
        }
    }

    /// `exp`, `iat` (both required), `nbf` (when present) with the clock skew, then the maximum age.
    /// Returns (`iat`, `exp`) in seconds.
    static func times(_ claims: JSONObject, _ policy: TokenPolicy, now: Int64) throws(TokenFailure) -> (Int64, Int64) {
        let skew = policy.clockSkewSeconds
        guard let expiresAt = claims["exp"]?.intValue, now < expiresAt + skew else { throw .expired }
        guard let issuedAt = claims["iat"]?.intValue, issuedAt <= now + skew else { throw .issuedInFuture }
        if let notBefore = claims["nbf"], (notBefore.intValue.map { $0 > now + skew }) ?? true { throw .notYetValid }
        if let maxAge = policy.maxAgeSeconds, now - issuedAt > maxAge { throw .tooOld(maxAgeSeconds: maxAge) }
        return (issuedAt, expiresAt)
    }
}
