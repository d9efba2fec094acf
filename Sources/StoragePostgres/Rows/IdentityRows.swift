import AuthCore
import Storage

/// How a `ProviderIdentity` maps onto the `identities` table. `email_lower` is derived here, in Swift, so
/// that case-insensitive lookups behave the same in every backend (SQL `lower()` differs between them).
enum IdentityRows {
    static let columns = """
        provider_id, federated_id, local_id, email, display_name, photo_url, screen_name, phone_number, \
        raw_user_info, sealed_secrets, linked_at
        """

    static let insert = "INSERT INTO identities (\(columns), email_lower) VALUES (\(Placeholders.list(12)))"

    /// Parameters: every column but `local_id` and `provider_id`, then `local_id`, `provider_id`.
    static let update = """
        UPDATE identities SET federated_id = $1, email = $2, display_name = $3, photo_url = $4, screen_name = $5, \
        phone_number = $6, raw_user_info = $7, sealed_secrets = $8, linked_at = $9, email_lower = $10 \
        WHERE local_id = $11 AND provider_id = $12
        """

    static func values(_ identity: ProviderIdentity) -> [PGValue] {
        [.init(identity.providerId), .init(identity.federatedId), .init(identity.localId)] + profileValues(identity)
    }

    static func updateValues(_ identity: ProviderIdentity) -> [PGValue] {
        [.init(identity.federatedId)] + profileValues(identity) + [.init(identity.localId), .init(identity.providerId)]
    }

    private static func profileValues(_ identity: ProviderIdentity) -> [PGValue] {
        [
            .init(identity.email), .init(identity.displayName), .init(identity.photoUrl), .init(identity.screenName),
            .init(identity.phoneNumber), .init(identity.rawUserInfo), .init(identity.sealedSecrets),
            .init(identity.linkedAt), .init(identity.email?.lowercased()),
        ]
    }

    static func decode(_ row: PGRow) throws(StoreError) -> ProviderIdentity {
        ProviderIdentity(
            providerId: try row.text(0), federatedId: try row.text(1), localId: try row.text(2),
            email: row.optionalText(3), displayName: row.optionalText(4), photoUrl: row.optionalText(5),
            screenName: row.optionalText(6), phoneNumber: row.optionalText(7), rawUserInfo: row.optionalText(8),
            sealedSecrets: row.optionalBytes(9), linkedAt: try row.integer(10))
    }
}
