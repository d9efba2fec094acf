/// Whether a refresh token that opened (so we issued it, for this project) may mint a new ID token, decided
/// from what the store holds. Pure, so every reason for refusal is tested without a store.
public enum RefreshDecision {
    /// - Parameters:
    ///   - record: the stored row for the token's hash; nil once the session was revoked or its user deleted.
    ///   - user: the user the token was sealed for.
    /// - Returns: the stored row (whose sign-in provider and extra claims the new ID token repeats) and the user.
    public static func check(record: RefreshTokenRecord?, user: UserRecord?)
        throws(AuthError) -> (RefreshTokenRecord, UserRecord) {
        guard let user else { throw .userNotFound }
        guard !user.disabled else { throw .userDisabled }
        // A token that opens but has no row was revoked at some instant (password change, admin revoke...):
        // revocation deletes rows instead of comparing whole seconds, so a token issued in the same second
        // before the change is refused too. `validSince` still ends tokens issued before it (an admin may
        // set it to a later second than now).
        guard let record, record.localId == user.localId, record.issuedAt >= user.validSince else {
            throw .tokenExpired
        }
        return (record, user)
    }
}
