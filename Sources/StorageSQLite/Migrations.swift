/// One numbered step of the schema. Migrations are append-only: a released migration is never edited,
/// a change is a new migration with the next version.
struct Migration {
    let version: Int
    let sql: String
}

/// The schema, written as the PostgreSQL backend writes it (TEXT, BIGINT as INTEGER, BYTEA as BLOB,
/// BOOLEAN as a 0/1 INTEGER) with the same constraint names, so both backends report the same
/// constraints. STRICT tables make SQLite enforce the column types as PostgreSQL does.
enum Migrations {
    static let all: [Migration] = [initialSchema, outbox, counters, initialEmail, refreshTokensByUser]

    /// The highest version this build knows.
    static var latestVersion: Int { all.last?.version ?? 0 }

    static let initialSchema = Migration(version: 1, sql: """
        CREATE TABLE users (
            local_id            TEXT    NOT NULL,
            email               TEXT,
            email_verified      INTEGER NOT NULL CHECK (email_verified IN (0, 1)),
            display_name        TEXT,
            photo_url           TEXT,
            phone_number        TEXT,
            password_algorithm  TEXT,
            password_parameters TEXT,
            password_hash       BLOB,
            password_salt       BLOB,
            password_updated_at INTEGER,
            email_link_signin   INTEGER NOT NULL CHECK (email_link_signin IN (0, 1)),
            disabled            INTEGER NOT NULL CHECK (disabled IN (0, 1)),
            custom_attributes   TEXT,
            valid_since         INTEGER NOT NULL,
            created_at          INTEGER NOT NULL,
            last_login_at       INTEGER,
            last_refresh_at     INTEGER,
            tenant_id           TEXT,
            CONSTRAINT users_pkey PRIMARY KEY (local_id),
            CONSTRAINT users_email_key UNIQUE (email),
            CONSTRAINT users_phone_number_key UNIQUE (phone_number),
            CONSTRAINT users_password_complete CHECK (
                (password_algorithm IS NULL) = (password_parameters IS NULL)
                AND (password_algorithm IS NULL) = (password_hash IS NULL)
                AND (password_algorithm IS NULL) = (password_salt IS NULL))
        ) STRICT;
        CREATE INDEX users_created_at_idx ON users (created_at);

        CREATE TABLE identities (
            provider_id    TEXT    NOT NULL,
            federated_id   TEXT    NOT NULL,
            local_id       TEXT    NOT NULL,
            email          TEXT,
            email_lower    TEXT,
            display_name   TEXT,
            photo_url      TEXT,
            screen_name    TEXT,
            phone_number   TEXT,
            raw_user_info  TEXT,
            sealed_secrets BLOB,
            linked_at      INTEGER NOT NULL,
            CONSTRAINT identities_pkey PRIMARY KEY (provider_id, federated_id),
            CONSTRAINT identities_user_provider_key UNIQUE (local_id, provider_id),
            CONSTRAINT identities_user_fkey FOREIGN KEY (local_id) REFERENCES users (local_id) ON DELETE CASCADE
        ) STRICT;
        CREATE INDEX identities_email_lower_idx ON identities (email_lower);

        CREATE TABLE refresh_tokens (
            token_hash       BLOB    NOT NULL,
            local_id         TEXT    NOT NULL,
            sign_in_provider TEXT    NOT NULL,
            tenant_id        TEXT,
            extra_claims     TEXT,
            issued_at        INTEGER NOT NULL,
            CONSTRAINT refresh_tokens_pkey PRIMARY KEY (token_hash),
            CONSTRAINT refresh_tokens_user_fkey FOREIGN KEY (local_id) REFERENCES users (local_id) ON DELETE CASCADE
        ) STRICT;
        CREATE INDEX refresh_tokens_local_id_idx ON refresh_tokens (local_id);

        CREATE TABLE signing_keys (
            kid                TEXT    NOT NULL,
            algorithm          TEXT    NOT NULL,
            sealed_private_key BLOB    NOT NULL,
            public_key_pem     TEXT    NOT NULL,
            certificate_pem    TEXT    NOT NULL,
            created_at         INTEGER NOT NULL,
            activates_at       INTEGER NOT NULL,
            unpublish_at       INTEGER,
            CONSTRAINT signing_keys_pkey PRIMARY KEY (kid)
        ) STRICT;

        CREATE TABLE one_time_tokens (
            kind       TEXT    NOT NULL,
            token_hash BLOB    NOT NULL,
            payload    TEXT    NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            CONSTRAINT one_time_tokens_pkey PRIMARY KEY (kind, token_hash)
        ) STRICT;
        CREATE INDEX one_time_tokens_expires_at_idx ON one_time_tokens (expires_at);

        CREATE TABLE settings (
            key   TEXT NOT NULL,
            value TEXT NOT NULL,
            CONSTRAINT settings_pkey PRIMARY KEY (key)
        ) STRICT;
        """)

    /// Durable work retried until it succeeds (mail, revocations at identity providers). Workers look for
    /// due items of one kind, hence the index on `(kind, next_attempt_at)`.
    static let outbox = Migration(version: 2, sql: """
        CREATE TABLE outbox (
            id              TEXT    NOT NULL,
            kind            TEXT    NOT NULL,
            payload         TEXT    NOT NULL,
            attempts        INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL,
            created_at      INTEGER NOT NULL,
            last_error      TEXT,
            CONSTRAINT outbox_pkey PRIMARY KEY (id)
        ) STRICT;
        CREATE INDEX outbox_kind_next_attempt_at_idx ON outbox (kind, next_attempt_at);
        """)

    /// Abuse counters shared by every instance (password attempts, code sends), one row per key.
    static let counters = Migration(version: 3, sql: """
        CREATE TABLE counters (
            key            TEXT    NOT NULL,
            window_ends_at INTEGER NOT NULL,
            count          INTEGER NOT NULL,
            CONSTRAINT counters_pkey PRIMARY KEY (key)
        ) STRICT;
        CREATE INDEX counters_window_ends_at_idx ON counters (window_ends_at);
        """)

    /// Firebase's `initialEmail`: the address an account had before its first change of email.
    static let initialEmail = Migration(version: 4, sql: """
        ALTER TABLE users ADD COLUMN initial_email TEXT;
        """)

    /// Refresh tokens keyed by their user, then their hash, in a `WITHOUT ROWID` table: a new user's first token
    /// lands beside the tokens of users created just before it (ids are time-ordered, `UserIDs`), where a key of
    /// the random hash alone put every sign-up's token, and its `local_id` index entry, on a random page. Every
    /// lookup knows the user (a refresh token names it), and the key's first column serves revocation and the
    /// cascade from `users`, so the separate `local_id` index goes. Same columns, same constraint names.
    static let refreshTokensByUser = Migration(version: 5, sql: """
        CREATE TABLE refresh_tokens_by_user (
            token_hash       BLOB    NOT NULL,
            local_id         TEXT    NOT NULL,
            sign_in_provider TEXT    NOT NULL,
            tenant_id        TEXT,
            extra_claims     TEXT,
            issued_at        INTEGER NOT NULL,
            CONSTRAINT refresh_tokens_pkey PRIMARY KEY (local_id, token_hash),
            CONSTRAINT refresh_tokens_user_fkey FOREIGN KEY (local_id) REFERENCES users (local_id) ON DELETE CASCADE
        ) STRICT, WITHOUT ROWID;
        INSERT INTO refresh_tokens_by_user (token_hash, local_id, sign_in_provider, tenant_id, extra_claims, issued_at)
            SELECT token_hash, local_id, sign_in_provider, tenant_id, extra_claims, issued_at FROM refresh_tokens;
        DROP TABLE refresh_tokens;
        ALTER TABLE refresh_tokens_by_user RENAME TO refresh_tokens;
        """)
}
