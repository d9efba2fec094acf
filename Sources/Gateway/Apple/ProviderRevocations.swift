import AuthCore
import Crypto
import Storage

/// Revokes provider tokens (Apple's refresh token) when an account is deleted, through the durable outbox.
///
/// The revocation is enqueued in the same transaction that deletes the user, so it can be neither lost nor
/// done for a deletion that rolled back. It is carried out afterwards by a background worker: a provider that is
/// down never blocks or undoes the deletion, it only delays the revocation, which is retried with backoff.
/// The payload keeps the secrets sealed exactly as they were in the identity row.
enum ProviderRevocations {
    static let kind = "provider.revoke"
    /// How long a claimed item is leased to one worker before another may retry it.
    static let leaseMilliseconds: Int64 = 60_000
    static let maxAttempts = 40

    /// Deletes the user and enqueues a revocation for each identity whose provider can revoke what it stored.
    /// Returns whether the user existed.
    static func deleteUser(_ localId: String, _ services: GatewayServices, _ tx: any StoreTransaction) throws -> Bool {
        let now = services.time.nowMilliseconds
        for identity in try tx.identities(localId: localId) {
            guard let sealed = identity.sealedSecrets,
                  services.providers.provider(ProviderID(identity.providerId), as: (any TokenRevoker).self) != nil
            else { continue }
            let payload: JSONObject = ["providerId": .string(identity.providerId), "secrets": .string(Base64URL.encode(sealed))]
            try tx.insertOutboxItem(OutboxItem(id: SecureRandom.alphanumeric(length: 22), kind: kind,
                                               payload: JSONSerializer.string(.object(payload)), nextAttemptAt: now,
                                               createdAt: now))
        }
        return try tx.deleteUser(localId: localId)
    }

    /// Claims the due items, revokes each, and deletes it or schedules the next attempt. Returns how many
    /// revocations succeeded.
    @discardableResult
    static func runDue(_ services: GatewayServices) async throws -> Int {
        let now = services.time.nowMilliseconds
        let claimed = try await services.store.write { tx -> [OutboxItem] in
            let due = try tx.dueOutboxItems(kind: kind, dueBy: now, limit: 20)
            for var item in due {
                item.nextAttemptAt = now + leaseMilliseconds
                try tx.updateOutboxItem(item)
            }
            return due
        }
        var done = 0
        for item in claimed {
            let failure = await attempt(item, services)
            try await services.store.write { tx in
                if let failure, item.attempts + 1 < maxAttempts {
                    var next = item
                    next.attempts += 1
                    next.lastError = failure
                    next.nextAttemptAt = now + backoff(afterAttempts: next.attempts)
                    try tx.updateOutboxItem(next)
                } else {
                    _ = try tx.deleteOutboxItem(id: item.id)
                }
            }
            if let failure {
                services.logger.warning("provider token revocation failed", [
                    ("outbox.id", .string(item.id)), ("attempts", .int(Int64(item.attempts + 1))), ("error", .string(failure))])
            } else {
                done += 1
            }
        }
        return done
    }

    /// 10 s, 20 s, 40 s … capped at an hour.
    static func backoff(afterAttempts attempts: Int) -> Int64 {
        min(3_600_000, 10_000 << min(attempts - 1, 20))
    }

    /// nil on success (or when there is nothing left to do), else a non-secret reason.
    private static func attempt(_ item: OutboxItem, _ services: GatewayServices) async -> String? {
        guard case .object(let payload)? = try? JSONParser.parse(item.payload),
              let providerId = payload["providerId"]?.stringValue,
              let sealed = payload["secrets"]?.stringValue.flatMap(Base64URL.decode),
              let plain = try? services.linking.sealer.open(sealed, purpose: IdentityCoding.secretsPurpose),
              case .object(let map)? = try? JSONParser.parse(plain)
        else { return nil }  // unreadable: retrying cannot help
        guard let revoker = services.providers.provider(ProviderID(providerId), as: (any TokenRevoker).self) else {
            return nil
        }
        var secrets: [String: String] = [:]
        for (key, value) in map { secrets[key] = value.stringValue }
        do {
            try await revoker.revokeStoredTokens(secrets)
            return nil
        } catch {
            return String(describing: error)
        }
    }

    /// Runs due revocations every few seconds until cancelled.
    static func loop(_ services: GatewayServices, interval: Duration = .seconds(2)) async {
        while !Task.isCancelled {
            do { try await runDue(services) } catch {
                services.logger.error("revocation outbox unavailable", [("error", .string(String(describing: error)))])
            }
            try? await Task.sleep(for: interval)
        }
    }
}
