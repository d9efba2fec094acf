import Storage

/// Which `UniqueConstraint` a SQLite error names. SQLite reports a violated unique index as
/// `UNIQUE constraint failed: table.column, table.column`, so the columns identify the constraint;
/// the schema gives each constraint the name PostgreSQL would report (see `Migrations`).
enum ConstraintNames {
    private static let prefix = "UNIQUE constraint failed: "

    private static let byColumns: [String: UniqueConstraint] = [
        "users.local_id": .localId,
        "users.email": .email,
        "users.phone_number": .phoneNumber,
        "identities.provider_id, identities.federated_id": .identity,
        "identities.local_id, identities.provider_id": .userProvider,
        "refresh_tokens.local_id, refresh_tokens.token_hash": .refreshToken,
        "signing_keys.kid": .signingKey,
        "one_time_tokens.kind, one_time_tokens.token_hash": .oneTimeToken,
        "outbox.id": .outboxItem,
    ]

    static func violated(byMessage message: String) -> UniqueConstraint? {
        guard message.hasPrefix(prefix) else { return nil }
        return byColumns[String(message.dropFirst(prefix.count))]
    }
}
