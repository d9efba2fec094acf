import AuthCore
import ProviderKit
import Storage

/// Periodic work: reloading signing keys (so a `gateway keys rotate` run elsewhere is picked up, and every
/// instance sharing a database switches keys together) and the optional clean-up of abandoned anonymous
/// accounts.
enum BackgroundJobs {
    /// Reloads keys every quarter of the key-cache max-age (at most every minute, at least every 250 ms), so
    /// a rotated-in key is known well before it starts signing.
    static func keyReloadLoop(_ services: GatewayServices, keys: SigningKeyService) async {
        let interval = Double(SigningKeys.reloadIntervalMilliseconds(keyCacheMaxAge: services.configuration.keyCacheMaxAgeSeconds)) / 1000
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(interval))
            if Task.isCancelled { return }
            do { try await keys.reload(services.keyRing) } catch {
                services.logger.error("signing key reload failed", [("error", .string(String(describing: error)))])
            }
        }
    }

    /// Deletes anonymous accounts that never upgraded (no email, phone, password or linked identity) and are
    /// older than the configured age, in small batches so the database is never locked for long.
    static func anonymousCleanupLoop(_ services: GatewayServices) async {
        guard let settings = services.providers.provider(.anonymous, as: (any AbandonedAccountCleanup).self)?
            .abandonedAccountPolicy else { return }
        while !Task.isCancelled {
            let deleted: Int
            do {
                deleted = try await deleteAbandonedAnonymousUsers(services, olderThanDays: settings.maxAgeDays)
            } catch {
                services.logger.error("anonymous clean-up failed", [("error", .string(String(describing: error)))])
                deleted = 0
            }
            if deleted > 0 { services.logger.info("anonymous accounts deleted", [("count", .int(Int64(deleted)))]) }
            try? await Task.sleep(for: .seconds(Double(max(1, settings.intervalSeconds))))
            if Task.isCancelled { return }
        }
    }

    static func deleteAbandonedAnonymousUsers(_ services: GatewayServices, olderThanDays days: Int64) async throws -> Int {
        let cutoff = services.time.nowMilliseconds - days * 86_400_000
        var total = 0
        while true {
            let deleted = try await services.store.write { tx -> Int in
                let ids = try tx.abandonedAnonymousUsers(createdBefore: cutoff, limit: 100)
                for id in ids { _ = try tx.deleteUser(localId: id) }
                return ids.count
            }
            total += deleted
            if deleted < 100 { return total }
        }
    }
}
