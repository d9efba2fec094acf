import Storage

/// What went wrong in one libpq call, before it is translated into the store's vocabulary.
struct PostgresFailure: Error, Equatable {
    /// The five-character SQLSTATE, nil when the failure happened in libpq (no server answer).
    var sqlState: String?
    var message: String
    /// For constraint violations, the constraint's name.
    var constraint: String?
    /// The connection is gone (libpq reports it bad): nothing more can be sent on it.
    var connectionLost: Bool

    init(sqlState: String?, message: String, constraint: String? = nil, connectionLost: Bool = false) {
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
        self.connectionLost = connectionLost
    }

    static func lost(_ message: String) -> PostgresFailure {
        PostgresFailure(sqlState: nil, message: message, connectionLost: true)
    }
}

/// Pure decisions about failures: which `StoreError` a failure becomes and whether a transaction that met
/// it may run again.
enum PostgresFailures {
    /// The constraint names of the schema (the same names the SQLite schema uses) and what they guard.
    static let uniqueConstraints: [String: UniqueConstraint] = [
        "users_pkey": .localId,
        "users_email_key": .email,
        "users_phone_number_key": .phoneNumber,
        "identities_pkey": .identity,
        "identities_user_provider_key": .userProvider,
        "refresh_tokens_pkey": .refreshToken,
        "signing_keys_pkey": .signingKey,
        "one_time_tokens_pkey": .oneTimeToken,
        "outbox_pkey": .outboxItem,
    ]

    /// Whether the failure means the server or the connection went away (rather than this statement being
    /// wrong): the server shutting down or starting up, or libpq losing the socket.
    static func isConnectionFailure(_ failure: PostgresFailure) -> Bool {
        if failure.connectionLost { return true }
        guard let state = failure.sqlState else { return false }
        // Class 08: connection exception. 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
        return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
    }

    /// Whether running the whole transaction again may succeed: a serialization failure or deadlock (the
    /// server rolled the transaction back), or a lost connection before COMMIT was sent.
    static func isRetryable(_ failure: PostgresFailure) -> Bool {
        isConnectionFailure(failure) || failure.sqlState == "40001" || failure.sqlState == "40P01"
    }

    /// A violation the caller may catch and act on inside the transaction (the statement had no effect).
    static func isCatchable(_ failure: PostgresFailure) -> Bool {
        switch storeError(for: failure) {
        case .uniqueViolation, .notFound: return true
        default: return false
        }
    }

    /// Any error of this package as a `StoreError` (which it may already be).
    static func storeError(for error: any Error) -> StoreError {
        switch error {
        case let failure as PostgresFailure: return storeError(for: failure)
        case let storeError as StoreError: return storeError
        default: return .unavailable("PostgreSQL: \(error)")
        }
    }

    static func storeError(for failure: PostgresFailure) -> StoreError {
        switch failure.sqlState {
        case "23505":
            guard let name = failure.constraint, let constraint = uniqueConstraints[name] else {
                // Our schema names every unique constraint; another one is a bug or a foreign schema, never an outage.
                return .corrupt("unrecognised unique constraint \(failure.constraint ?? "?"): \(failure.message)")
            }
            return .uniqueViolation(constraint)
        case "23503":
            return .notFound
        case "25006":
            return .readOnly
        case "XX001", "XX002":
            return .corrupt("PostgreSQL: \(failure.message)")
        case "57014":
            return .unavailable("PostgreSQL statement timeout: \(failure.message)")
        case let state? where state.hasPrefix("22") || state.hasPrefix("54"):
            // Data exceptions (a value too long, bytes that are not text) and program limits (an index row too
            // large): the value itself is refused.
            return .invalidValue("PostgreSQL (\(state)): \(failure.message)")
        default:
            let code = failure.sqlState.map { " (\($0))" } ?? ""
            return .unavailable("PostgreSQL\(code): \(failure.message)")
        }
    }
}
