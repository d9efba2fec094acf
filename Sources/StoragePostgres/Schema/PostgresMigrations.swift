/// One numbered step of the schema. Migrations are append-only: a released migration is never edited, a
/// change is a new migration with the next version. Versions mean the same schema as SQLite's
/// (`StorageSQLite.Migrations`): the same tables, columns and constraint names, so both backends report the
/// same constraints and `gateway migrate-storage` can copy between them.
struct PostgresMigration {
    let version: Int
    let sql: String
}

/// The schema. Text columns use the `C` collation: ordering is by UTF-8 bytes whatever the database's
/// locale, as the store contract says (and as SQLite's BINARY collation does).
enum PostgresMigrations {
    static let all: [PostgresMigration] = [initialSchema, outbox, counters, initialEmail, refreshTokensByUser]

    /// The highest version this build knows.
    static var latestVersion: Int { all.last?.version ?? 0 }

    static let initialSchema = PostgresMigration(version: 1, sql: """
        CREATE TABLE users (
            local_id            TEXT COLLATE "C" NOT NULL,
            email               TEXT COLLATE "C",
            email_verified      BOOLEAN NOT NULL,
            display_name        TEXT COLLATE "C",
            photo_url           TEXT COLLATE "C",
            phone_number        TEXT COLLATE "C",
            password_algorithm  TEXT COLLATE "C",
            password_parameters TEXT COLLATE "C",
            password_hash       BYTEA,
            password_salt       BYTEA,
            password_updated_at BIGINT,
            email_link_signin   BOOLEAN NOT NULL,
            disabled            BOOLEAN NOT NULL,
            custom_attributes   TEXT COLLATE "C",
            valid_since         BIGINT NOT NULL,
            created_at          BIGINT NOT NULL,
            last_login_at       BIGINT,
            last_refresh_at     BIGINT,
            tenant_id           TEXT COLLATE "C",
            CONSTRAINT users_pkey PRIMARY KEY (local_id),
            CONSTRAINT users_email_key UNIQUE (email),
            CONSTRAINT users_phone_number_key UNIQUE (phone_number),
            CONSTRAINT users_password_complete CHECK (
                (password_algorithm IS NULL) = (password_parameters IS NULL)
                AND (password_algorithm IS NULL) = (password_hash IS NULL)
                AND (password_algorithm IS NULL) = (password_salt IS NULL))
        );
        CREATE INDEX users_created_at_idx ON users (created_at);

        CREATE TABLE identities (
            provider_id    TEXT COLLATE "C" NOT NULL,
            federated_id   TEXT COLLATE "C" NOT NULL,
            local_id       TEXT COLLATE "C" NOT NULL,
            email          TEXT COLLATE "C",
            email_lower    TEXT COLLATE "C",
            display_name   TEXT COLLATE "C",
            photo_url      TEXT COLLATE "C",
            screen_name    TEXT COLLATE "C",
            phone_number   TEXT COLLATE "C",
            raw_user_info  TEXT COLLATE "C",
            sealed_secrets BYTEA,
            linked_at      BIGINT NOT NULL,
            CONSTRAINT identities_pkey PRIMARY KEY (provider_id, federated_id),
            CONSTRAINT identities_user_provider_key UNIQUE (local_id, provider_id),
            CONSTRAINT identities_user_fkey FOREIGN KEY (local_id) REFERENCES users (local_id) ON DELETE CASCADE
        );
        CREATE INDEX identities_email_lower_idx ON identities (email_lower);

        CREATE TABLE refresh_tokens (
            token_hash       BYTEA  NOT NULL,
            local_id         TEXT COLLATE "C" NOT NULL,
            sign_in_provider TEXT COLLATE "C" NOT NULL,
            tenant_id        TEXT COLLATE "C",
            extra_claims     TEXT COLLATE "C",
            issued_at        BIGINT NOT NULL,
            CONSTRAINT refresh_tokens_pkey PRIMARY KEY (token_hash),
            CONSTRAINT refresh_tokens_user_fkey FOREIGN KEY (local_id) REFERENCES users (local_id) ON DELETE CASCADE
        );
        CREATE INDEX refresh_tokens_local_id_idx ON refresh_tokens (local_id);

        CREATE TABLE signing_keys (
            kid                TEXT COLLATE "C" NOT NULL,
            algorithm          TEXT COLLATE "C" NOT NULL,
            sealed_private_key BYTEA  NOT NULL,
            public_key_pem     TEXT COLLATE "C" NOT NULL,
            certificate_pem    TEXT COLLATE "C" NOT NULL,
            created_at         BIGINT NOT NULL,
            activates_at       BIGINT NOT NULL,
            unpublish_at       BIGINT,
            CONSTRAINT signing_keys_pkey PRIMARY KEY (kid)
        );

        CREATE TABLE one_time_tokens (
            kind       TEXT COLLATE "C" NOT NULL,
            token_hash BYTEA  NOT NULL,
            payload    TEXT COLLATE "C" NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            CONSTRAINT one_time_tokens_pkey PRIMARY KEY (kind, token_hash)
        );
        CREATE INDEX one_time_tokens_expires_at_idx ON one_time_tokens (expires_at);

        CREATE TABLE settings (
            key   TEXT COLLATE "C" NOT NULL,
            value TEXT COLLATE "C" NOT NULL,
            CONSTRAINT settings_pkey PRIMARY KEY (key)
        );
        """)

    static let outbox = PostgresMigration(version: 2, sql: """
        CREATE TABLE outbox (
            id              TEXT COLLATE "C" NOT NULL,
            kind            TEXT COLLATE "C" NOT NULL,
            payload         TEXT COLLATE "C" NOT NULL,
            attempts        BIGINT NOT NULL,
            next_attempt_at BIGINT NOT NULL,
            created_at      BIGINT NOT NULL,
            last_error      TEXT COLLATE "C",
            CONSTRAINT outbox_pkey PRIMARY KEY (id)
        );
        CREATE INDEX outbox_kind_next_attempt_at_idx ON outbox (kind, next_attempt_at);
        """)

    /// Abuse counters shared by every instance (password attempts, code sends), one row per key.
    static let counters = PostgresMigration(version: 3, sql: """
        CREATE TABLE counters (
            key            TEXT COLLATE "C" NOT NULL,
            window_ends_at BIGINT NOT NULL,
            count          BIGINT NOT NULL,
            CONSTRAINT counters_pkey PRIMARY KEY (key)
        );
        CREATE INDEX counters_window_ends_at_idx ON counters (window_ends_at);
        """)

    /// Firebase's `initialEmail`: the address an account had before its first change of email.
    static let initialEmail = PostgresMigration(version: 4, sql: """
        ALTER TABLE users ADD COLUMN initial_email TEXT COLLATE "C";
        """)

    /// Refresh tokens keyed by their user, then their hash (SQLite's migration 5 says why). The key's first column
    /// serves revocation and the cascade from `users`, so the separate `local_id` index goes.
    static let refreshTokensByUser = PostgresMigration(version: 5, sql: """
        ALTER TABLE refresh_tokens DROP CONSTRAINT refresh_tokens_pkey;
        ALTER TABLE refresh_tokens ADD CONSTRAINT refresh_tokens_pkey PRIMARY KEY (local_id, token_hash);
        DROP INDEX refresh_tokens_local_id_idx;
        """)
}
