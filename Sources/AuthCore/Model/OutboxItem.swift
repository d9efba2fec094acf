/// One piece of durable work that must be retried until it succeeds (a mail to send, a revocation at an
/// identity provider). It lives in the store, so every gateway instance on the same database shares the
/// queue, and a crash between "decided to do it" and "did it" loses nothing.
///
/// A worker claims due items by pushing `nextAttemptAt` forward (a lease) in the same write transaction
/// that selects them, does the work outside the transaction, then deletes the item on success or records
/// `lastError` and a later `nextAttemptAt` on failure.
public struct OutboxItem: Sendable, Equatable {
    /// Unique id, for example 22 random alphanumeric characters.
    public var id: String
    /// What the work is, e.g. `mail`, `apple.revoke`; workers ask only for their own kind.
    public var kind: String
    /// Kind-specific text. Stored as given: callers seal secrets themselves before enqueueing.
    public var payload: String
    /// How many attempts have been made so far.
    public var attempts: Int
    /// Milliseconds since the epoch from which the item is due (again).
    public var nextAttemptAt: Int64
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    /// Why the last attempt failed, for operators; never a secret.
    public var lastError: String?

    public init(id: String, kind: String, payload: String, attempts: Int = 0, nextAttemptAt: Int64,
                createdAt: Int64, lastError: String? = nil) {
        self.id = id
        self.kind = kind
        self.payload = payload
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
        self.lastError = lastError
    }
}
