import Storage

/// How a write transaction keeps its read-modify-writes whole.
///
/// Writes run at READ COMMITTED, where a value read early and written back later would overwrite whatever
/// another transaction committed in between: a refresh storing `lastRefreshAt` would put back the password,
/// `validSince` or `disabled` that a concurrent change had just replaced. So in a write transaction every read
/// of something the transaction may write back takes a lock held until it ends, and the read happens once the
/// lock is held, so it sees the latest committed value:
/// - A user's row is the lock of the user and of its identities. Reading either locks the row with
///   `FOR NO KEY UPDATE`: other writers of the user queue behind it, while inserts that only reference the user
///   (a new refresh token, an identity) do not wait. A user is locked once per transaction (`lockedUsers`).
/// - A setting, and the set of signing keys, are guarded by an advisory lock on their name, which also covers
///   a value that does not exist yet (two instances starting together both claiming a setting).
///
/// Why locks rather than REPEATABLE READ or SERIALIZABLE: those make the later writer fail and run again, so a
/// client refreshing in a loop could make a password change or a disable fail after a few retries; with a lock
/// it waits its turn and then succeeds. Writers of one user were already serialised by the UPDATE's row lock;
/// the lock is now taken at the read instead. READ COMMITTED also keeps the revocation `DELETE` seeing every
/// token committed before it runs. A deadlock (two transactions locking two users in opposite orders, only when
/// merging accounts) is broken by the server, and the transaction runs again (`RetryPolicy`).
extension PostgresTransaction {
    /// Appended to a `SELECT` of users in a write transaction.
    var userRowLock: String { isWritable ? " FOR NO KEY UPDATE" : "" }

    /// Locks the user's row (when it exists) until the transaction ends.
    static let lockUser = "SELECT local_id FROM users WHERE local_id = $1 FOR NO KEY UPDATE"

    /// Locks the row of the user holding an identity, returning that user's id.
    static let lockIdentityOwner = """
        SELECT local_id FROM users WHERE local_id = (
            SELECT local_id FROM identities WHERE provider_id = $1 AND federated_id = $2) FOR NO KEY UPDATE
        """

    /// Locks the rows of every user holding an identity with the email, in one order (fewer deadlocks).
    static let lockIdentityOwnersByEmail = """
        SELECT local_id FROM users WHERE local_id IN (SELECT local_id FROM identities WHERE email_lower = $1)
        ORDER BY local_id FOR NO KEY UPDATE
        """

    /// Advisory lock classes (the first key of `pg_advisory_xact_lock(int, int)`); the migrator's 64-bit key
    /// starts with 0x67617465, so these cannot meet it.
    private static let settingLockClass: Int32 = 0x6768_0001
    private static let signingKeysLockClass: Int32 = 0x6768_0002

    /// The advisory lock of one setting (keys hash to 32 bits: two keys sharing a hash only wait for each other).
    static let lockSetting = "SELECT pg_advisory_xact_lock(\(settingLockClass), hashtext($1))"

    /// The advisory lock of the set of signing keys.
    static let lockSigningKeys = "SELECT pg_advisory_xact_lock(\(signingKeysLockClass), 0)"

    /// `statement`, preceded in the same round trip by `lock` when the transaction writes; the result of
    /// `statement`.
    @discardableResult
    func run(_ statement: String, _ values: [PGValue], after lock: String, _ lockValues: [PGValue])
        throws(StoreError) -> PGResult {
        guard isWritable else { return try run(statement, values) }
        return try run([(lock, lockValues), (statement, values)])[1]
    }
}
