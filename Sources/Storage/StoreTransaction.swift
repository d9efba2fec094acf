import AuthCore

/// The operations available inside one `UserStore` transaction. Values are passed and returned whole; no
/// method exposes backend details (row ids, replace-on-conflict, native error codes).
///
/// `limit` arguments below 1 return an empty list. "Ascending" text order means UTF-8 byte order (the
/// `C` collation in PostgreSQL).
public protocol StoreTransaction {
    // MARK: Users

    func user(localId: String) throws -> UserRecord?
    /// Exact match on the stored email; the caller lower-cases before storing and before asking.
    func user(email: String) throws -> UserRecord?
    func user(phoneNumber: String) throws -> UserRecord?
    /// Throws `uniqueViolation(.localId / .email / .phoneNumber)`.
    func insertUser(_ user: UserRecord) throws
    /// Replaces the user with the same `localId`. Throws `notFound`, `uniqueViolation(.email / .phoneNumber)`.
    func updateUser(_ user: UserRecord) throws
    /// Sets the user's `lastRefreshAt` (milliseconds since the epoch) and nothing else: what every token
    /// refresh writes. Throws `notFound`. A backend implements it as a one-column UPDATE, because `updateUser`
    /// assigns every column and so rewrites the row's email, phone and creation-time index entries as well
    /// (about three times the cost in SQLite).
    func recordRefresh(localId: String, at ms: Int64) throws
    /// Deletes the user with its identities and refresh tokens. Returns whether the user existed.
    func deleteUser(localId: String) throws -> Bool
    /// Users in ascending `localId` order, starting after `afterLocalId` (Firebase `batchGet` paging).
    func users(afterLocalId: String?, limit: Int) throws -> [UserRecord]
    /// Users in descending `localId` order, starting before `beforeLocalId` (Firebase `accounts:query` with
    /// `order: DESC`).
    func usersDescending(beforeLocalId: String?, limit: Int) throws -> [UserRecord]
    func userCount() throws -> Int
    /// `localId`s of users with no email, no phone, no password and no identities that were created before
    /// `ms` (milliseconds since the epoch), oldest first: anonymous accounts nobody came back to.
    func abandonedAnonymousUsers(createdBefore ms: Int64, limit: Int) throws -> [String]

    // MARK: Identities

    /// The user's identities ordered by `linkedAt`, then `providerId`.
    func identities(localId: String) throws -> [ProviderIdentity]
    func identity(providerId: String, federatedId: String) throws -> ProviderIdentity?
    /// Identities whose email equals `email` ignoring case (both sides lower-cased), ordered by `linkedAt`,
    /// then `providerId`, then `federatedId`. Identity emails are stored as the provider sent them.
    func identities(email: String) throws -> [ProviderIdentity]
    /// Throws `uniqueViolation(.identity / .userProvider)`; `notFound` if the user does not exist.
    func insertIdentity(_ identity: ProviderIdentity) throws
    /// Replaces the identity with the same `(localId, providerId)`; `federatedId` may change (the password
    /// provider's federated id is the email). Throws `notFound`, `uniqueViolation(.identity)`.
    func updateIdentity(_ identity: ProviderIdentity) throws
    /// Returns whether the identity existed.
    func deleteIdentity(localId: String, providerId: String) throws -> Bool

    // MARK: Refresh tokens (stored by hash only)

    /// Throws `uniqueViolation(.refreshToken)` for a second token with the same `(localId, tokenHash)`;
    /// `notFound` if the user does not exist.
    func insertRefreshToken(_ token: RefreshTokenRecord) throws
    /// The token of user `localId` with this hash. Tokens are found through their user because every refresh
    /// token names its user (`RefreshTokens.open`): the stores key them by `(localId, tokenHash)`, so a sign-up's
    /// token lands beside its user's other rows instead of at a random place in an index of every token.
    func refreshToken(localId: String, hash: [UInt8]) throws -> RefreshTokenRecord?
    /// Revokes refresh tokens of the user at this moment, inside this transaction: those issued in or before
    /// second `issuedAtOrBefore`, or every one stored so far when it is `nil`. Tokens inserted later, even in
    /// the same transaction, are not affected. Returns how many were revoked.
    ///
    /// Revocation must not depend on comparing whole-second timestamps alone: a token issued in the same
    /// second as a password change would otherwise outlive it. Revoked tokens are gone for every instance
    /// sharing the database once the transaction commits; a backend may delete them or mark them, as long
    /// as `refreshToken(localId:hash:)` no longer returns them.
    func revokeRefreshTokens(localId: String, issuedAtOrBefore seconds: Int64?) throws -> Int

    // MARK: Signing keys

    /// All keys ordered by `createdAt`, then `kid`.
    func signingKeys() throws -> [SigningKeyRecord]
    /// Throws `uniqueViolation(.signingKey)`.
    func insertSigningKey(_ key: SigningKeyRecord) throws
    /// Replaces the key with the same `kid`. Throws `notFound`.
    func updateSigningKey(_ key: SigningKeyRecord) throws

    // MARK: Single-use tokens

    /// Throws `uniqueViolation(.oneTimeToken)` on the same `(kind, tokenHash)`.
    func insertOneTimeToken(_ token: OneTimeTokenRecord) throws
    /// Looks without consuming.
    func oneTimeToken(kind: String, hash: [UInt8]) throws -> OneTimeTokenRecord?
    /// Returns and deletes the token, expired ones too: the caller checks `expiresAt`, so it can tell
    /// EXPIRED from INVALID. Of two transactions taking the same token, exactly one gets it.
    func takeOneTimeToken(kind: String, hash: [UInt8]) throws -> OneTimeTokenRecord?
    /// Deletes tokens with `expiresAt < ms`. Returns how many were deleted.
    func deleteExpiredOneTimeTokens(before ms: Int64) throws -> Int

    // MARK: Outbox (durable work retried until it succeeds, shared by every instance on the database)

    /// Throws `uniqueViolation(.outboxItem)` on a duplicate `id`.
    func insertOutboxItem(_ item: OutboxItem) throws
    /// Items of `kind` with `nextAttemptAt <= ms`, ordered by `nextAttemptAt`, then `id`, at most `limit`.
    /// To claim them, push their `nextAttemptAt` forward with `updateOutboxItem` in the same write
    /// transaction: of two transactions claiming at once, each item goes to exactly one. (Backends that run
    /// writes concurrently must lock what a write transaction selects here and skip rows locked by others,
    /// as PostgreSQL's `FOR UPDATE SKIP LOCKED` does.)
    func dueOutboxItems(kind: String, dueBy ms: Int64, limit: Int) throws -> [OutboxItem]
    /// Every item of `kind`, due or not, ordered by `createdAt`, then `id`.
    func outboxItems(kind: String) throws -> [OutboxItem]
    /// Replaces the item with the same `id`. Throws `notFound`.
    func updateOutboxItem(_ item: OutboxItem) throws
    /// Returns whether the item existed.
    func deleteOutboxItem(id: String) throws -> Bool

    // MARK: Counters (abuse limits every instance shares: password attempts, code sends)

    /// Adds `delta` to the counter `key` in the fixed window that ends at `windowEndsAt` (milliseconds since
    /// the epoch) and returns the new count, or returns nil and changes nothing when the count would exceed
    /// `limit`. A counter stored for an earlier window starts again from 0; one stored for a later window
    /// (another instance's clock runs ahead) is counted in that later window. A count never goes below 0.
    /// Concurrent additions to one counter are neither lost nor able to pass `limit` together.
    func addToCounter(_ key: String, windowEndsAt: Int64, delta: Int, limit: Int) throws -> Int?
    /// The count of `key` in the window ending at `windowEndsAt` (or in a later one stored); else 0.
    func counter(_ key: String, windowEndsAt: Int64) throws -> Int
    /// Deletes counters whose window ended at or before `ms`. Returns how many were deleted.
    func deleteExpiredCounters(endedBy ms: Int64) throws -> Int

    // MARK: Settings (small project configuration such as `allowDuplicateEmails`)

    func setting(_ key: String) throws -> String?
    /// Sets or, with `nil`, deletes the setting.
    func setSetting(_ key: String, value: String?) throws

    // MARK: Listing every record (copying a whole store to another backend: `StoreCopier`)

    /// Refresh tokens in ascending byte order of `localId`, then `tokenHash`, starting after `after`.
    func refreshTokens(after: RefreshTokenKey?, limit: Int) throws -> [RefreshTokenRecord]
    /// One-time tokens of every kind in ascending order of `kind`, then `tokenHash` bytes, starting after `after`.
    func oneTimeTokens(after: (kind: String, tokenHash: [UInt8])?, limit: Int) throws -> [OneTimeTokenRecord]
    /// Outbox items of every kind in ascending `id` order, starting after `afterId`.
    func outboxItems(afterId: String?, limit: Int) throws -> [OutboxItem]
    /// Every setting.
    func settings() throws -> [String: String]
}
