import AuthCore
import Storage

/// How a `UserRecord` maps onto the `users` table: one column list, its values in the same order, and
/// the decoder, kept side by side so they cannot drift apart.
enum UserRows {
    static let columns = """
        local_id, email, email_verified, display_name, photo_url, phone_number, password_algorithm, \
        password_parameters, password_hash, password_salt, password_updated_at, email_link_signin, disabled, \
        custom_attributes, valid_since, created_at, last_login_at, last_refresh_at, tenant_id, initial_email
        """

    /// The statements run on every request are built once: interpolating them per call allocated and hashed
    /// the whole text each time (the statement cache is keyed by it).
    static let selectByLocalId = "SELECT \(columns) FROM users WHERE local_id = ?"

    static let recordRefresh = "UPDATE users SET last_refresh_at = ? WHERE local_id = ?"

    static let insert = "INSERT INTO users (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// Parameters: every column but `local_id`, then `local_id`.
    static let update = """
        UPDATE users SET email = ?, email_verified = ?, display_name = ?, photo_url = ?, phone_number = ?, \
        password_algorithm = ?, password_parameters = ?, password_hash = ?, password_salt = ?, \
        password_updated_at = ?, email_link_signin = ?, disabled = ?, custom_attributes = ?, valid_since = ?, \
        created_at = ?, last_login_at = ?, last_refresh_at = ?, tenant_id = ?, initial_email = ? WHERE local_id = ?
        """

    static func values(_ user: UserRecord) -> [SQLValue] {
        [.init(user.localId)] + valuesAfterLocalId(user)
    }

    static func updateValues(_ user: UserRecord) -> [SQLValue] {
        valuesAfterLocalId(user) + [.init(user.localId)]
    }

    private static func valuesAfterLocalId(_ user: UserRecord) -> [SQLValue] {
        [
            .init(user.email), .init(user.emailVerified), .init(user.displayName), .init(user.photoUrl),
            .init(user.phoneNumber), .init(user.password?.algorithm), .init(user.password?.parameters),
            .init(user.password?.hash), .init(user.password?.salt), .init(user.passwordUpdatedAt),
            .init(user.emailLinkSignin), .init(user.disabled), .init(user.customAttributes),
            .init(user.validSince), .init(user.createdAt), .init(user.lastLoginAt), .init(user.lastRefreshAt),
            .init(user.tenantId), .init(user.initialEmail),
        ]
    }

    static func decode(_ row: Row) throws(StoreError) -> UserRecord {
        UserRecord(
            localId: try row.text(0), email: row.optionalText(1), emailVerified: try row.bool(2),
            displayName: row.optionalText(3), photoUrl: row.optionalText(4), phoneNumber: row.optionalText(5),
            password: try password(row), passwordUpdatedAt: row.optionalInteger(10),
            emailLinkSignin: try row.bool(11), disabled: try row.bool(12), customAttributes: row.optionalText(13),
            validSince: try row.integer(14), createdAt: try row.integer(15), lastLoginAt: row.optionalInteger(16),
            lastRefreshAt: row.optionalInteger(17), tenantId: row.optionalText(18), initialEmail: row.optionalText(19))
    }

    private static func password(_ row: Row) throws(StoreError) -> PasswordCredential? {
        guard let algorithm = row.optionalText(6) else { return nil }
        return PasswordCredential(
            algorithm: algorithm, parameters: try row.text(7), hash: try row.blob(8), salt: try row.blob(9))
    }
}
