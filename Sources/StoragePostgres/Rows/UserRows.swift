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

    static let insert = "INSERT INTO users (\(columns)) VALUES (\(Placeholders.list(20)))"

    /// Parameters: every column but `local_id`, then `local_id`.
    static let update = """
        UPDATE users SET email = $1, email_verified = $2, display_name = $3, photo_url = $4, phone_number = $5, \
        password_algorithm = $6, password_parameters = $7, password_hash = $8, password_salt = $9, \
        password_updated_at = $10, email_link_signin = $11, disabled = $12, custom_attributes = $13, \
        valid_since = $14, created_at = $15, last_login_at = $16, last_refresh_at = $17, tenant_id = $18, \
        initial_email = $19 WHERE local_id = $20
        """

    static func values(_ user: UserRecord) -> [PGValue] {
        [.init(user.localId)] + valuesAfterLocalId(user)
    }

    static func updateValues(_ user: UserRecord) -> [PGValue] {
        valuesAfterLocalId(user) + [.init(user.localId)]
    }

    private static func valuesAfterLocalId(_ user: UserRecord) -> [PGValue] {
        [
            .init(user.email), .init(user.emailVerified), .init(user.displayName), .init(user.photoUrl),
            .init(user.phoneNumber), .init(user.password?.algorithm), .init(user.password?.parameters),
            .init(user.password?.hash), .init(user.password?.salt), .init(user.passwordUpdatedAt),
            .init(user.emailLinkSignin), .init(user.disabled), .init(user.customAttributes),
            .init(user.validSince), .init(user.createdAt), .init(user.lastLoginAt), .init(user.lastRefreshAt),
            .init(user.tenantId), .init(user.initialEmail),
        ]
    }

    static func decode(_ row: PGRow) throws(StoreError) -> UserRecord {
        UserRecord(
            localId: try row.text(0), email: row.optionalText(1), emailVerified: try row.bool(2),
            displayName: row.optionalText(3), photoUrl: row.optionalText(4), phoneNumber: row.optionalText(5),
            password: try password(row), passwordUpdatedAt: try row.optionalInteger(10),
            emailLinkSignin: try row.bool(11), disabled: try row.bool(12), customAttributes: row.optionalText(13),
            validSince: try row.integer(14), createdAt: try row.integer(15), lastLoginAt: try row.optionalInteger(16),
            lastRefreshAt: try row.optionalInteger(17), tenantId: row.optionalText(18), initialEmail: row.optionalText(19))
    }

    private static func password(_ row: PGRow) throws(StoreError) -> PasswordCredential? {
        guard let algorithm = row.optionalText(6) else { return nil }
        return PasswordCredential(
            algorithm: algorithm, parameters: try row.text(7), hash: try row.bytes(8), salt: try row.bytes(9))
    }
}

/// `$1, $2, ...` for statements with many parameters.
enum Placeholders {
    static func list(_ count: Int, from first: Int = 1) -> String {
        (first..<(first + count)).map { "$\($0)" }.joined(separator: ", ")
    }
}
