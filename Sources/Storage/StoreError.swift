/// The unique constraints every store enforces. They are the final arbiter when two requests race: the loser
/// gets `StoreError.uniqueViolation` naming the constraint, so it can re-decide (for example turn a "link"
/// into `FEDERATED_USER_ID_ALREADY_LINKED`) instead of guessing from a message.
public enum UniqueConstraint: String, Sendable, CaseIterable {
    /// `users.localId`.
    case localId
    /// `users.email` (the stored, lower-cased email).
    case email
    /// `users.phoneNumber`.
    case phoneNumber
    /// `(providerId, federatedId)` of an identity: one provider account belongs to at most one user.
    case identity
    /// `(localId, providerId)` of an identity: a user links at most one account per provider.
    case userProvider
    /// `(localId, tokenHash)` of a refresh token.
    case refreshToken
    /// `signing_keys.kid`.
    case signingKey
    /// `(kind, tokenHash)` of a one-time token.
    case oneTimeToken
    /// `outbox.id`.
    case outboxItem
}

/// Why a store operation failed. Every backend maps its native errors onto this closed set, so callers
/// never see SQLite or PostgreSQL codes.
public enum StoreError: Error, Equatable, Sendable {
    /// A write would break the named unique constraint; the write had no effect.
    case uniqueViolation(UniqueConstraint)
    /// The record to update, or the user a new row must belong to, does not exist.
    case notFound
    /// Stored data cannot be read back as a record (or the database file is damaged).
    case corrupt(String)
    /// The store cannot serve the request now: closed, locked for too long, disk or I/O failure.
    case unavailable(String)
    /// The database refused a value itself (too long for an index, not valid text): the request's input, which
    /// no retry will fix. The gateway answers 400, never the 503 that makes clients retry.
    case invalidValue(String)
    /// A write was attempted inside `read`; read transactions are snapshots and never write.
    case readOnly
    /// The database was migrated by a newer build (schema `found`) than this one knows (`known`). Opening
    /// it anyway could corrupt data, so the store refuses; run the newer build or restore a backup.
    case schemaTooNew(found: Int, known: Int)
}
