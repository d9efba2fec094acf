import AuthCore
import Crypto
import ProviderKit
import Storage

/// Applies a verified delivery of account events in one store transaction, together with the record of its
/// delivery id, so a repeated delivery (providers retry) changes nothing and a failed one can be delivered again.
enum AccountEventApplier {
    static let minimumMemoryMilliseconds: Int64 = 86_400_000

    static func apply(_ delivery: ProviderEventDelivery, from provider: ProviderID,
                      _ services: GatewayServices) async throws -> [AccountEventOutcome] {
        let now = services.time.nowMilliseconds
        // Remembered at least a day: a provider that forgot to say when its deliveries expire still gets each
        // applied once while it retries.
        let record = delivery.deliveryId.map { id in
            OneTimeTokenRecord(kind: StoredKinds.providerEvent(provider), tokenHash: SHA256.hash(id), payload: "",
                               createdAt: now, expiresAt: max(now + minimumMemoryMilliseconds, delivery.deliveryExpiresAt))
        }
        do {
            return try await services.store.write { tx in
                if let record { try tx.insertOneTimeToken(record) }
                return try delivery.events.map { event in try apply(event, from: provider, now: now, tx) }
            }
        } catch StoreError.uniqueViolation(.oneTimeToken) {
            return delivery.events.map { _ in .duplicate }
        }
    }

    static func apply(_ event: AccountEvent, from provider: ProviderID, now: Int64,
                      _ tx: any StoreTransaction) throws -> AccountEventOutcome {
        var account: AccountEventRules.Account?
        if let identity = try tx.identity(providerId: provider.rawValue, federatedId: AccountEventRules.subject(of: event)),
           let user = try tx.user(localId: identity.localId) {
            account = .init(user: user, identities: try tx.identities(localId: user.localId))
        }
        let plan = AccountEventRules.plan(event, provider: provider, account: account)
        switch plan {
        case .nothing:
            break
        case .unlink(let localId, let disable):
            guard var user = account?.user else { break }
            _ = try tx.deleteIdentity(localId: localId, providerId: provider.rawValue)
            if disable { user.disabled = true }
            try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
            try tx.updateUser(user)
        case .deleteIdentity(let localId):
            guard var user = account?.user else { break }
            let copied = account?.identities.first { $0.providerId == provider.rawValue }
            _ = try tx.deleteIdentity(localId: localId, providerId: provider.rawValue)
            if let copied {
                if user.displayName != nil && user.displayName == copied.displayName { user.displayName = nil }
                if user.photoUrl != nil && user.photoUrl == copied.photoUrl { user.photoUrl = nil }
            }
            try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
            try tx.updateUser(user)
        case .deleteUser(let localId):
            _ = try tx.deleteIdentity(localId: localId, providerId: provider.rawValue)
            _ = try tx.deleteUser(localId: localId)
        }
        return plan.outcome
    }
}
