/// `gateway --help`.
enum HelpText {
    static func text(for command: String?) -> String {
        switch command {
        case "serve": return serve
        case "keys": return keys
        case "backup": return backup
        case "migrate-storage": return migrateStorage
        case "service-accounts": return serviceAccounts
        case "users": return users
        default: return general
        }
    }

    static let general = """
    gateway — Gatehouse, a Firebase-compatible authentication gateway

    USAGE
      gateway serve [options]        run the gateway (default 127.0.0.1:9099, data in ./gatehouse-data)
      gateway keys rotate [options]  add a new token-signing key (published now, signs after the key-cache max-age)
      gateway keys list [options]    show signing keys and which one signs
      gateway service-accounts create NAME --key-file FILE [--gateway-url URL]
                                     make a service account for firebase-admin; writes its JSON key file
      gateway service-accounts register EMAIL --certificate FILE [--key-id ID]
                                     trust an existing Google service account's key (custom tokens, admin API)
      gateway service-accounts list | delete EMAIL [--key-id ID]
      gateway users import FILE [--hash-algo A ...]
                                     import users from a `firebase auth:export` file (JSON or CSV); resumable
      gateway users export FILE      write every user in the auth:export JSON format
      gateway backup FILE [options]  write a consistent copy of the SQLite database while the gateway runs
      gateway migrate-storage --from SOURCE --to TARGET
                                     copy every record into an empty database (SQLite <-> PostgreSQL)
      gateway help COMMAND           details about one command

    COMMON OPTIONS
      --data-dir DIR      data directory (gatehouse.sqlite, master.key)   [env GATEHOUSE_DATA_DIR]
      --config FILE       JSON configuration file (see README)            [env GATEHOUSE_CONFIG]
      --project-id ID     Firebase project id (token audience)            [env GATEHOUSE_PROJECT_ID]
      --database-url URL  PostgreSQL shared by several instances, instead of SQLite in DIR
                          (postgres://user:password@host:port/database)   [env GATEHOUSE_DATABASE_URL]
      --master-key-file F master key file to use as is (never created)   [env GATEHOUSE_MASTER_KEY_FILE]

    The master key that seals signing keys comes from GATEHOUSE_MASTER_KEY (64 hex characters), from
    --master-key-file, or (SQLite only) from DIR/master.key, created on first start. Back it up together
    with the database. With PostgreSQL every instance needs the same key; a generated one is refused.
    """

    static let serve = """
    gateway serve [--host H] [--port P] [--data-dir DIR] [--project-id ID] [--config FILE] [--emulator [--allow-non-loopback]]

      --host H               listen address (default 127.0.0.1)         [env GATEHOUSE_HOST]
      --port P               listen port (default 9099; 0 = any free)    [env GATEHOUSE_PORT]
      --emulator             behave as the Firebase Auth Emulator for app test suites (loopback only)
      --allow-non-loopback   let emulator mode listen on a non-loopback address

    Stops gracefully on SIGTERM or SIGINT: /readyz turns 503, in-flight requests finish.
    """

    static let keys = """
    gateway keys rotate [--data-dir DIR] [--config FILE]
      Adds an RS256 key. It is published at once and starts signing one key-cache max-age
      (tokens.keyCacheMaxAgeSeconds) plus one key-reload interval later, so verifiers that cache the key set,
      fetched from any instance, never meet an unknown kid.
      Older keys stay published until the last token they signed has expired. Safe while gateways run.
    gateway keys list [--data-dir DIR]
    """

    static let serviceAccounts = """
    gateway service-accounts create NAME --key-file FILE [--gateway-url URL] [--data-dir DIR | --database-url URL]
      Creates NAME@<projectId>.iam.gserviceaccount.com with a new RSA key and writes the key file (Google's
      service-account JSON, mode 0600; the gateway keeps only the certificate). Its token_uri is
      URL/oauth2.googleapis.com/token, URL being --gateway-url, else publicUrl, else http://host:port: backends
      using the file (firebase-admin's credentials.Certificate, google-auth) obtain admin access tokens there.
    gateway service-accounts register EMAIL --certificate FILE [--key-id ID]
      Trusts an existing service account (e.g. one from Google) by its public key: FILE is a PEM certificate or
      public key (give --key-id, the key file's private_key_id) or Google's JSON map {key id: certificate} from
      https://www.googleapis.com/service_accounts/v1/metadata/x509/EMAIL. Registering again adds keys.
    gateway service-accounts list
    gateway service-accounts delete EMAIL [--key-id ID]
      Removes the account (or one key). Its access tokens and custom tokens are refused from the next request on.
    """

    static let migrateStorage = """
    gateway migrate-storage --from SOURCE --to TARGET
      Copies users, identities, refresh tokens, signing keys, one-time tokens, the outbox and settings from
      SOURCE into TARGET, which must be empty. Each is a PostgreSQL URL, a SQLite database file, or a data
      directory (its gatehouse.sqlite). Stop the gateways first. Sealed secrets are copied as they are:
      start the gateways on TARGET with SOURCE's master key (GATEHOUSE_MASTER_KEY). Abuse counters are not
      copied (they start again at zero).
    """

    static let users = """
    gateway users import FILE [--format json|csv] [--batch-size N] [--data-dir DIR | --database-url URL]
                              [--hash-algo A] [--hash-key K] [--salt-separator S] [--rounds N] [--mem-cost M]
                              [--parallelization P] [--block-size B] [--dk-len L] [--hash-input-order SALT_FIRST|PASSWORD_FIRST]
      Reads a file written by `firebase auth:export` (JSON, or CSV for a .csv name) and writes its users into the
      database, N (default 1000) per transaction, safe while gateways run. The hash flags are those of `firebase auth:import`,
      with the values from the Firebase console (Authentication → Users → ⋮ → Password hash parameters), e.g.
      --hash-algo SCRYPT --hash-key <base64_signer_key> --salt-separator <base64_salt_separator> --rounds 8
      --mem-cost 14. A file written by `gateway users export` carries its own hash parameters.
      Users whose localId is already stored are skipped: run the same command again to resume after an
      interruption. Progress goes to standard error; the summary lists each failed user and the exit code is 1
      when any failed. Imported users sign in with their old passwords, which are rehashed on first success.
    gateway users export FILE [--data-dir DIR | --database-url URL]
      Writes every user in auth:export's JSON format (password hashes in standard base64). The hash parameters
      are in the file's "gatehouseHash" member; users with other parameters are in "gatehouseUsers", grouped by
      "gatehouseHashGroups" (firebase auth:import reads only "users": import each group with its own flags).
    """

    static let backup = """
    gateway backup FILE [--data-dir DIR]
      Copies the SQLite database with SQLite's online backup API (consistent while the gateway serves).
      The copy is useless without the master key: keep DIR/master.key (or GATEHOUSE_MASTER_KEY) with it.
    """
}
