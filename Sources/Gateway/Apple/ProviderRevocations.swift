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
            let outcome = await attempt(item, services)
            let attempts = item.attempts + 1
            let abandoned = outcome.abandonReason(afterAttempts: attempts)
            try await services.store.write { tx in
                if case .failed(let failure, _) = outcome, abandoned == nil {
                    var next = item
                    next.attempts = attempts
                    next.lastError = failure
                    next.nextAttemptAt = now + backoff(afterAttempts: attempts)
                    try tx.updateOutboxItem(next)
                } else {
                    _ = try tx.deleteOutboxItem(id: item.id)
                }
            }
            switch outcome {
            case .revoked:
                done += 1
            case .failed(let failure, let providerId):
                services.logger.warning("provider token revocation failed", [
                    ("outbox.id", .string(item.id)), ("provider", .string(providerId)), ("attempts", .int(Int64(attempts))), ("error", .string(failure))])
            case .abandoned:
                break
            }
            if let abandoned {
                // The provider keeps a token the deleted user can no longer reach: an operator must know.
                services.logger.error("provider revocation abandoned", [
                    ("outbox.id", .string(item.id)), ("provider", .string(outcome.providerId ?? "unknown")),
                    ("attempts", .int(Int64(attempts))), ("reason", .string(abandoned))])
            }
        }
        return done
    }

    /// 10 s, 20 s, 40 s … capped at an hour.
    static func backoff(afterAttempts attempts: Int) -> Int64 {
        min(3_600_000, 10_000 << min(attempts - 1, 20))
    }

    /// What one attempt came to. Reasons are non-secret: they never include the sealed or opened secrets.
    enum Outcome {
        case revoked
        /// Worth retrying (the provider was unreachable or refused for now).
        case failed(String, providerId: String)
        /// Retrying cannot help (the payload cannot be read, or the provider is gone).
        case abandoned(String, providerId: String?)

        var providerId: String? {
            switch self {
            case .revoked: return nil
            case .failed(_, let providerId): return providerId
            case .abandoned(_, let providerId): return providerId
            }
        }

        /// Why the item is dropped: retrying cannot help, or it failed `maxAttempts` times. nil to keep it.
        func abandonReason(afterAttempts attempts: Int) -> String? {
            switch self {
            case .revoked: return nil
            case .abandoned(let reason, _): return reason
            case .failed(let failure, _):
                return attempts >= maxAttempts ? "gave up after \(attempts) attempts; last error: \(failure)" : nil
            }
        }
    }

    private static func attempt(_ item: OutboxItem, _ services: GatewayServices) async -> Outcome {
        guard case .object(let payload)? = try? JSONParser.parse(item.payload),
              let providerId = payload["providerId"]?.stringValue else {
            return .abandoned("the outbox payload is unreadable", providerId: nil)
        }
        guard let sealed = payload["secrets"]?.stringValue.flatMap(Base64URL.decode),
              let plain = try? services.linking.sealer.open(sealed, purpose: IdentityCoding.secretsPurpose),
              case .object(let map)? = try? JSONParser.parse(plain)
        else { return .abandoned("the stored secrets cannot be unsealed (was the master key changed?)", providerId: providerId) }
        guard let revoker = services.providers.provider(ProviderID(providerId), as: (any TokenRevoker).self) else {
            return .abandoned("the provider is no longer registered", providerId: providerId)
        }
        var secrets: [String: String] = [:]
        for (key, value) in map { secrets[key] = value.stringValue }
        do {
            try await revoker.revokeStoredTokens(secrets)
            return .revoked
        } catch {
            return .failed(String(describing: error), providerId: providerId)
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
