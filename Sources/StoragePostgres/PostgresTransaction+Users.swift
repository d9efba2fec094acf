import AuthCore
import Storage

extension PostgresTransaction {
    // MARK: Users

    func user(localId: String) throws -> UserRecord? {
        try run("SELECT \(UserRows.columns) FROM users WHERE local_id = $1", [.init(localId)]).rows(UserRows.decode).first
    }

    func user(email: String) throws -> UserRecord? {
        try run("SELECT \(UserRows.columns) FROM users WHERE email = $1", [.init(email)]).rows(UserRows.decode).first
    }

    func user(phoneNumber: String) throws -> UserRecord? {
        try run("SELECT \(UserRows.columns) FROM users WHERE phone_number = $1", [.init(phoneNumber)])
            .rows(UserRows.decode).first
    }

    func insertUser(_ user: UserRecord) throws {
        try runGuarded(UserRows.insert, UserRows.values(user))
    }

    func updateUser(_ user: UserRecord) throws {
        guard try runGuarded(UserRows.update, UserRows.updateValues(user)).changedRows > 0 else {
            throw StoreError.notFound
        }
    }

    func deleteUser(localId: String) throws -> Bool {
        try requireWritable()
        return try run("DELETE FROM users WHERE local_id = $1", [.init(localId)]).changedRows > 0
    }

    func users(afterLocalId: String?, limit: Int) throws -> [UserRecord] {
        guard limit > 0 else { return [] }
        guard let afterLocalId else {
            return try run("SELECT \(UserRows.columns) FROM users ORDER BY local_id LIMIT $1", [.init(limit)])
                .rows(UserRows.decode)
        }
        return try run(
            "SELECT \(UserRows.columns) FROM users WHERE local_id > $1 ORDER BY local_id LIMIT $2",
            [.init(afterLocalId), .init(limit)]
        ).rows(UserRows.decode)
    }

    func usersDescending(beforeLocalId: String?, limit: Int) throws -> [UserRecord] {
        guard limit > 0 else { return [] }
        guard let beforeLocalId else {
            return try run("SELECT \(UserRows.columns) FROM users ORDER BY local_id DESC LIMIT $1", [.init(limit)])
                .rows(UserRows.decode)
        }
        return try run(
            "SELECT \(UserRows.columns) FROM users WHERE local_id < $1 ORDER BY local_id DESC LIMIT $2",
            [.init(beforeLocalId), .init(limit)]
        ).rows(UserRows.decode)
    }

    func userCount() throws -> Int {
        try run("SELECT count(*) FROM users").rows { row throws(StoreError) in Int(try row.integer(0)) }.first ?? 0
    }

    func abandonedAnonymousUsers(createdBefore ms: Int64, limit: Int) throws -> [String] {
        guard limit > 0 else { return [] }
        return try run(
            """
            SELECT u.local_id FROM users u
            WHERE u.email IS NULL AND u.phone_number IS NULL AND u.password_hash IS NULL AND u.created_at < $1
              AND NOT EXISTS (SELECT 1 FROM identities i WHERE i.local_id = u.local_id)
            ORDER BY u.created_at, u.local_id LIMIT $2
            """,
            [.init(ms), .init(limit)]
        ).rows { row throws(StoreError) in try row.text(0) }
    }

    // MARK: Identities

    func identities(localId: String) throws -> [ProviderIdentity] {
        try run(
            "SELECT \(IdentityRows.columns) FROM identities WHERE local_id = $1 ORDER BY linked_at, provider_id",
            [.init(localId)]
        ).rows(IdentityRows.decode)
    }

    func identity(providerId: String, federatedId: String) throws -> ProviderIdentity? {
        try run(
            "SELECT \(IdentityRows.columns) FROM identities WHERE provider_id = $1 AND federated_id = $2",
            [.init(providerId), .init(federatedId)]
        ).rows(IdentityRows.decode).first
    }

    func identities(email: String) throws -> [ProviderIdentity] {
        try run(
            """
            SELECT \(IdentityRows.columns) FROM identities WHERE email_lower = $1
            ORDER BY linked_at, provider_id, federated_id
            """,
            [.init(email.lowercased())]
        ).rows(IdentityRows.decode)
    }

    func insertIdentity(_ identity: ProviderIdentity) throws {
        try runGuarded(IdentityRows.insert, IdentityRows.values(identity))
    }

    func updateIdentity(_ identity: ProviderIdentity) throws {
        guard try runGuarded(IdentityRows.update, IdentityRows.updateValues(identity)).changedRows > 0 else {
            throw StoreError.notFound
        }
    }

    func deleteIdentity(localId: String, providerId: String) throws -> Bool {
        try requireWritable()
        return try run(
            "DELETE FROM identities WHERE local_id = $1 AND provider_id = $2", [.init(localId), .init(providerId)]
        ).changedRows > 0
    }
}
