import AuthCore
import Storage

/// The one way sessions end. It runs inside the transaction that makes the change (password, email,
/// takeover, admin revoke, disable), so the change and the revocation commit together and hold for every
/// instance sharing the database.
///
/// Two mechanisms, because Firebase's wire fixes one of them:
/// - ID tokens are checked against `validSince`, in whole seconds: they carry exactly Firebase's claims, so
///   one minted in the same second as the revocation lives until it expires (at most an hour), as with
///   Firebase and firebase-admin's `check_revoked`.
/// - Refresh tokens are revoked server-side at this instant (`revokeRefreshTokens`): one issued before the
///   change never refreshes again, even in the same second, while a fresh session stored after it (the
///   caller's own, when it made the change) keeps working.
enum SessionRevocation {
    enum Kind: Sendable, Equatable {
        /// A password or email change, a takeover, a user's own `validSince`: every session so far ends.
        case everything
        /// An admin's `validSince` in seconds (firebase-admin's `revoke_refresh_tokens` sends the current
        /// second of the caller's clock).
        case validSince(Int64)
        /// Disabling the account ends its refresh tokens (Firebase: they expire when "the user is
        /// disabled"); `validSince` stays, and ID tokens are refused while the account is disabled.
        case refreshTokens
    }

    /// Applies `kind` to `user` and revokes the refresh tokens it ends. The caller stores `user` in the same
    /// transaction.
    static func revoke(_ kind: Kind, _ user: inout UserRecord, nowMilliseconds: Int64,
                       in tx: any StoreTransaction) throws {
        let nowSeconds = nowMilliseconds / 1000
        switch kind {
        case .everything: user.validSince = nowSeconds
        case .validSince(let seconds): user.validSince = seconds
        case .refreshTokens: break
        }
        _ = try tx.revokeRefreshTokens(localId: user.localId,
                                       issuedAtOrBefore: refreshTokensIssuedAtOrBefore(kind, nowSeconds: nowSeconds))
    }

    /// Which refresh tokens `kind` ends: nil for every one stored so far. An admin `validSince` of the
    /// current second or later ends them all; one in the past ends those issued in or before that second.
    /// Those were all issued before the call, and a caller's clock may name the second just gone, so a token
    /// from that very second is ended too (Firebase would keep it; its ID tokens still are kept).
    static func refreshTokensIssuedAtOrBefore(_ kind: Kind, nowSeconds: Int64) -> Int64? {
        guard case .validSince(let seconds) = kind, seconds < nowSeconds else { return nil }
        return seconds
    }
}
