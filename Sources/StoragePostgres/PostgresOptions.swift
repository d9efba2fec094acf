/// How `PostgresUserStore` connects and how long it waits. The defaults suit a gateway whose HTTP requests
/// have a 10 s deadline: a statement never runs longer than that, and a transaction that meets a
/// restarting server keeps retrying only while its client may still be waiting.
public struct PostgresOptions: Sendable, Equatable {
    /// A libpq connection URL (`postgres://user:password@host:port/database?sslmode=...`).
    public var url: String
    /// Connections (and worker threads) at most; connections are opened on demand.
    public var poolSize: Int
    /// `statement_timeout` of every connection: a statement running longer is cancelled (`unavailable`).
    public var statementTimeoutMilliseconds: Int
    /// libpq's `connect_timeout` when the URL does not set one.
    public var connectTimeoutSeconds: Int
    /// How long one transaction keeps retrying after a lost connection (server restart, failover) or a
    /// deadlock, with backoff, before it fails with `unavailable`.
    public var retryBudgetMilliseconds: Int64

    public init(url: String, poolSize: Int = 8, statementTimeoutMilliseconds: Int = 5_000,
                connectTimeoutSeconds: Int = 5, retryBudgetMilliseconds: Int64 = 8_000) {
        self.url = url
        self.poolSize = poolSize
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.retryBudgetMilliseconds = retryBudgetMilliseconds
    }

    /// The libpq keyword/value pairs of a connection: defaults first, then the URL, whose own settings win.
    var connectionParameters: [(String, String)] {
        [
            ("connect_timeout", String(connectTimeoutSeconds)),
            ("application_name", "gatehouse"),
            ("client_encoding", "UTF8"),
            // A peer that vanished without closing (network partition) is noticed within about 20 s.
            ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "2"),
            ("dbname", url),
        ]
    }

    /// Session settings run once per new connection. `idle_in_transaction_session_timeout` ends a
    /// transaction left open by a bug instead of letting it hold locks forever.
    var sessionSetup: String {
        """
        SET statement_timeout = \(max(0, statementTimeoutMilliseconds)); \
        SET idle_in_transaction_session_timeout = 60000; \
        SET client_min_messages = warning; \
        SET TIME ZONE 'UTC'
        """
    }
}
