import AuthCore
import Storage

/// How a `ProviderIdentity` maps onto the `identities` table. `email_lower` is derived here, in Swift, so
/// that case-insensitive lookups behave the same in every backend (SQL `lower()` differs between them).
enum IdentityRows {
    static let columns = """
        provider_id, federated_id, local_id, email, display_name, photo_url, screen_name, phone_number, \
        raw_user_info, sealed_secrets, linked_at
        """

    /// A user's identities; the index on (local_id, provider_id) finds them, and they are put in order in
    /// Swift (`linkedOrder`) so that SQLite needs no sorter for a handful of rows.
    static let selectByLocalId = "SELECT \(columns) FROM identities WHERE local_id = ?"

    /// The order identities are listed in: by `linked_at`, then `provider_id` compared as UTF-8 bytes (the
    /// `ORDER BY linked_at, provider_id` this replaces, in SQLite's BINARY collation). `(local_id,
    /// provider_id)` is unique, so the order is total within a user.
    static func linkedOrder(_ lhs: ProviderIdentity, _ rhs: ProviderIdentity) -> Bool {
        if lhs.linkedAt != rhs.linkedAt { return lhs.linkedAt < rhs.linkedAt }
        return lhs.providerId.utf8.lexicographicallyPrecedes(rhs.providerId.utf8)
    }

    static let insert = "INSERT INTO identities (\(columns), email_lower) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// Parameters: every column but `local_id` and `provider_id`, then `local_id`, `provider_id`.
    static let update = """
        UPDATE identities SET federated_id = ?, email = ?, display_name = ?, photo_url = ?, screen_name = ?, \
        phone_number = ?, raw_user_info = ?, sealed_secrets = ?, linked_at = ?, email_lower = ? \
        WHERE local_id = ? AND provider_id = ?
        """

    static func values(_ identity: ProviderIdentity) -> [SQLValue] {
        [.init(identity.providerId), .init(identity.federatedId), .init(identity.localId)]
            + profileValues(identity)
    }

    static func updateValues(_ identity: ProviderIdentity) -> [SQLValue] {
        [.init(identity.federatedId)] + profileValues(identity) + [.init(identity.localId), .init(identity.providerId)]
    }

    private static func profileValues(_ identity: ProviderIdentity) -> [SQLValue] {
        [
            .init(identity.email), .init(identity.displayName), .init(identity.photoUrl), .init(identity.screenName),
            .init(identity.phoneNumber), .init(identity.rawUserInfo), .init(identity.sealedSecrets),
            .init(identity.linkedAt), .init(identity.email?.lowercased()),
        ]
    }

    static func decode(_ row: Row) throws(StoreError) -> ProviderIdentity {
        ProviderIdentity(
            providerId: try row.text(0), federatedId: try row.text(1), localId: try row.text(2),
            email: row.optionalText(3), displayName: row.optionalText(4), photoUrl: row.optionalText(5),
            screenName: row.optionalText(6), phoneNumber: row.optionalText(7), rawUserInfo: row.optionalText(8),
            sealedSecrets: row.optionalBlob(9), linkedAt: try row.integer(10))
    }
}
