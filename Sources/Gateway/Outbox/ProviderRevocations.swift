import AuthCore
import Crypto
import Storage
import WireFormats
import ProviderKit

/// Revokes provider tokens (Apple's refresh token) when an account is deleted, through the durable outbox.
///
/// The revocation is enqueued in the same transaction that deletes the user, so it can be neither lost nor
/// done for a deletion that rolled back. It is carried out afterwards by a background worker: a provider that is
/// down never blocks or undoes the deletion, it only delays the revocation, which is retried with backoff.
/// The payload keeps the secrets sealed exactly as they were in the identity row. An item given up (after
/// `maxAttempts`, or when retrying cannot help) leaves a live token at the provider, so it is logged as an error.
enum ProviderRevocations {
    static let kind = StoredKinds.outboxRevocation
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
        let worker = OutboxWorker(kind: kind, store: services.store, time: services.time, leaseMilliseconds: leaseMilliseconds)
        let results = try await worker.runDue { item in await attempt(item, services) }
        var done = 0
        for (item, outcome) in results {
            services.metrics.outboxAttempted(kind: kind, outcome: outcome)
            let providerId = Self.providerId(of: item) ?? "unknown"
            switch outcome {
            case .done:
                done += 1
            case .retry(let failure, _, _):
                services.logger.warning("provider token revocation failed", [
                    ("outbox.id", .string(item.id)), ("provider", .string(providerId)),
                    ("attempts", .int(Int64(item.attempts + 1))), ("error", .string(failure))])
            case .abandon(let reason):
                // The provider keeps a token the deleted user can no longer reach: an operator must know.
                services.logger.error("provider revocation abandoned", [
                    ("outbox.id", .string(item.id)), ("provider", .string(providerId)),
                    ("attempts", .int(Int64(item.attempts + 1))), ("reason", .string(reason))])
            }
        }
        return done
    }

    /// 10 s, 20 s, 40 s … capped at an hour.
    static func backoff(afterAttempts attempts: Int) -> Int64 {
        OutboxWorker.backoff(afterAttempts: attempts, initial: 10_000, cap: 3_600_000)
    }

    private static func providerId(of item: OutboxItem) -> String? {
        (try? JSONParser.parse(item.payload))?["providerId"]?.stringValue
    }

    /// One revocation. Reasons are non-secret: they never include the sealed or opened secrets.
    private static func attempt(_ item: OutboxItem, _ services: GatewayServices) async -> OutboxAttempt {
        guard case .object(let payload)? = try? JSONParser.parse(item.payload),
              let providerId = payload["providerId"]?.stringValue else {
            return .abandon("the outbox payload is unreadable")
        }
        guard let sealed = payload["secrets"]?.stringValue.flatMap(Base64URL.decode),
              let secrets = IdentityCoding.openSecrets(sealed, sealer: services.sealer)
        else { return .abandon("the stored secrets cannot be unsealed (was the master key changed?)") }
        guard let revoker = services.providers.provider(ProviderID(providerId), as: (any TokenRevoker).self) else {
            return .abandon("the provider is no longer registered")
        }
        do {
            try await revoker.revokeStoredTokens(secrets)
            return .done
        } catch {
            let attempts = item.attempts + 1
            let failure = String(describing: error)
            if attempts >= maxAttempts { return .abandon("gave up after \(attempts) attempts; last error: \(failure)") }
            return .retry(failure, afterMilliseconds: backoff(afterAttempts: attempts))
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
