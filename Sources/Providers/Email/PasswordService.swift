import AuthCore


/// Password hashing off the request path: every KDF call runs on a dedicated, bounded pool (cores − 1
/// threads by default), so 50 ms hashes queue behind each other and never in front of lookups, database
/// calls or the event loops.
///
/// The queue in front of the pool is bounded too: beyond `maxQueued` waiting hashes a request is refused at
/// once with `TOO_MANY_ATTEMPTS_TRY_LATER` (what clients show as "too many requests") instead of waiting
/// seconds and holding memory, so a sign-in flood cannot pile up unbounded work.
struct PasswordService: Sendable {
    let hasher: any PasswordHashing
    let pool: WorkerPool
    let maxQueued: Int

    private func admit() throws {
        guard pool.queuedJobs < maxQueued else { throw AuthError(.tooManyAttemptsTryLater) }
    }

    /// The KDF pool size for `configured` (0 means cores − 1, at least 1).
    static func workerCount(configured: Int, cores: Int) -> Int {
        configured > 0 ? configured : max(1, cores - 1)
    }

    func hash(_ password: String) async throws -> PasswordCredential {
        try admit()
        let hasher = hasher
        return try await pool.run { try hasher.hash(password) }
    }

    /// Checks `password` against `credential`, or against a decoy when there is none, so an unknown account
    /// costs exactly one KDF run like a known one.
    func verify(_ password: String, against credential: PasswordCredential?) async throws -> Bool {
        try admit()
        let hasher = hasher
        return try await pool.run {
            guard let credential else {
                _ = hasher.verify(password, against: hasher.decoyCredential())
                return false
            }
            return hasher.verify(password, against: credential)
        }
    }

    func needsRehash(_ credential: PasswordCredential) -> Bool { hasher.needsRehash(credential) }
}
