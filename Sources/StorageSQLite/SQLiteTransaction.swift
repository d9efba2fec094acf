import AuthCore
import Storage

/// One transaction of `SQLiteUserStore`, on the connection that began it. Every write is a single SQL
/// statement, so a statement that fails (a unique violation, say) has no effect and the transaction stays
/// usable, as the `UserStore` contract requires.
final class SQLiteTransaction: StoreTransaction {
    let connection: Connection

    init(connection: Connection) {
        self.connection = connection
    }

    // MARK: Users

    func user(localId: String) throws -> UserRecord? {
        try connection.queryFirst(UserRows.selectByLocalId, [.init(localId)], UserRows.decode)
    }

    func user(email: String) throws -> UserRecord? {
        try connection.queryFirst(
            "SELECT \(UserRows.columns) FROM users WHERE email = ?", [.init(email)], UserRows.decode)
    }

    func user(phoneNumber: String) throws -> UserRecord? {
        try connection.queryFirst(
            "SELECT \(UserRows.columns) FROM users WHERE phone_number = ?", [.init(phoneNumber)], UserRows.decode)
    }

    func insertUser(_ user: UserRecord) throws {
        try connection.execute(UserRows.insert, UserRows.values(user))
    }

    func recordRefresh(localId: String, at ms: Int64) throws {
        guard try connection.execute(UserRows.recordRefresh, [.init(ms), .init(localId)]) > 0 else {
            throw StoreError.notFound
        }
    }

    func updateUser(_ user: UserRecord) throws {
        guard try connection.execute(UserRows.update, UserRows.updateValues(user)) > 0 else {
            throw StoreError.notFound
        }
    }

    func deleteUser(localId: String) throws -> Bool {
        try connection.execute("DELETE FROM users WHERE local_id = ?", [.init(localId)]) > 0
    }

    func users(afterLocalId: String?, limit: Int) throws -> [UserRecord] {
        guard limit > 0 else { return [] }
        guard let afterLocalId else {
            return try connection.query(
                "SELECT \(UserRows.columns) FROM users ORDER BY local_id LIMIT ?", [.init(limit)], UserRows.decode)
        }
        return try connection.query(
            "SELECT \(UserRows.columns) FROM users WHERE local_id > ? ORDER BY local_id LIMIT ?",
            [.init(afterLocalId), .init(limit)], UserRows.decode)
    }

    func usersDescending(beforeLocalId: String?, limit: Int) throws -> [UserRecord] {
        guard limit > 0 else { return [] }
        guard let beforeLocalId else {
            return try connection.query(
                "SELECT \(UserRows.columns) FROM users ORDER BY local_id DESC LIMIT ?", [.init(limit)], UserRows.decode)
        }
        return try connection.query(
            "SELECT \(UserRows.columns) FROM users WHERE local_id < ? ORDER BY local_id DESC LIMIT ?",
            [.init(beforeLocalId), .init(limit)], UserRows.decode)
    }

    func userCount() throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM users") { row throws(StoreError) in
            Int(try row.integer(0))
        } ?? 0
    }

    func abandonedAnonymousUsers(createdBefore ms: Int64, limit: Int) throws -> [String] {
        guard limit > 0 else { return [] }
        return try connection.query(
            """
            SELECT u.local_id FROM users u
            WHERE u.email IS NULL AND u.phone_number IS NULL AND u.password_hash IS NULL AND u.created_at < ?
              AND NOT EXISTS (SELECT 1 FROM identities i WHERE i.local_id = u.local_id)
            ORDER BY u.created_at, u.local_id LIMIT ?
            """,
            [.init(ms), .init(limit)]
        ) { row throws(StoreError) in try row.text(0) }
    }

    // MARK: Identities

    func identities(localId: String) throws -> [ProviderIdentity] {
        try connection.query(IdentityRows.selectByLocalId, [.init(localId)], IdentityRows.decode)
            .sorted(by: IdentityRows.linkedOrder)
    }

    func identity(providerId: String, federatedId: String) throws -> ProviderIdentity? {
        try connection.queryFirst(
            "SELECT \(IdentityRows.columns) FROM identities WHERE provider_id = ? AND federated_id = ?",
            [.init(providerId), .init(federatedId)], IdentityRows.decode)
    }

    func identities(email: String) throws -> [ProviderIdentity] {
        try connection.query(
            """
            SELECT \(IdentityRows.columns) FROM identities WHERE email_lower = ?
            ORDER BY linked_at, provider_id, federated_id
            """,
            [.init(email.lowercased())], IdentityRows.decode)
    }

    func insertIdentity(_ identity: ProviderIdentity) throws {
        try connection.execute(IdentityRows.insert, IdentityRows.values(identity))
    }

    func updateIdentity(_ identity: ProviderIdentity) throws {
        guard try connection.execute(IdentityRows.update, IdentityRows.updateValues(identity)) > 0 else {
            throw StoreError.notFound
        }
    }

    func deleteIdentity(localId: String, providerId: String) throws -> Bool {
        try connection.execute(
            "DELETE FROM identities WHERE local_id = ? AND provider_id = ?", [.init(localId), .init(providerId)]) > 0
    }
}
