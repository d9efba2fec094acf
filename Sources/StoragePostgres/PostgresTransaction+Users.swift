import AuthCore
import Storage

extension PostgresTransaction {
    // MARK: Users (in a write transaction, reads lock the user: see `PostgresTransaction+Locks`)

    func user(localId: String) throws -> UserRecord? {
        try lockedUser(run("SELECT \(UserRows.columns) FROM users WHERE local_id = $1\(userRowLock)", [.init(localId)]))
    }

    func user(email: String) throws -> UserRecord? {
        try lockedUser(run("SELECT \(UserRows.columns) FROM users WHERE email = $1\(userRowLock)", [.init(email)]))
    }

    func user(phoneNumber: String) throws -> UserRecord? {
        try lockedUser(run("SELECT \(UserRows.columns) FROM users WHERE phone_number = $1\(userRowLock)",
                           [.init(phoneNumber)]))
    }

    /// The user a `SELECT ... \(userRowLock)` found, noted as locked in a write transaction.
    private func lockedUser(_ result: PGResult) throws(StoreError) -> UserRecord? {
        guard let user = try result.rows(UserRows.decode).first else { return nil }
        if isWritable { lockedUsers.insert(user.localId) }
        return user
    }

    func insertUser(_ user: UserRecord) throws {
        try runGuarded(UserRows.insert, UserRows.values(user))
    }

    func updateUser(_ user: UserRecord) throws {
        guard try runGuarded(UserRows.update, UserRows.updateValues(user)).changedRows > 0 else {
            throw StoreError.notFound
        }
    }

    func recordRefresh(localId: String, at ms: Int64) throws {
        let changed = try runGuarded(
            "UPDATE users SET last_refresh_at = $1 WHERE local_id = $2", [.init(ms), .init(localId)]).changedRows
        guard changed > 0 else { throw StoreError.notFound }
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

    // MARK: Identities (in a write transaction, read once their user is locked)

    func identities(localId: String) throws -> [ProviderIdentity] {
        let select = "SELECT \(IdentityRows.columns) FROM identities WHERE local_id = $1 ORDER BY linked_at, provider_id"
        guard isWritable, !lockedUsers.contains(localId) else {
            return try run(select, [.init(localId)]).rows(IdentityRows.decode)
        }
        let results = try run([(Self.lockUser, [.init(localId)]), (select, [.init(localId)])])
        if results[0].rowCount > 0 { lockedUsers.insert(localId) }
        return try results[1].rows(IdentityRows.decode)
    }

    /// In a write transaction: locks the owner, then reads the identity again; should it have moved to another
    /// user (or appeared) in between, the new owner is locked and it is read once more.
    func identity(providerId: String, federatedId: String) throws -> ProviderIdentity? {
        let select = "SELECT \(IdentityRows.columns) FROM identities WHERE provider_id = $1 AND federated_id = $2"
        let keys: [PGValue] = [.init(providerId), .init(federatedId)]
        guard isWritable else { return try run(select, keys).rows(IdentityRows.decode).first }
        var attempts = 0
        while true {
            attempts += 1
            let results = try run([(Self.lockIdentityOwner, keys), (select, keys)])
            let locked = try results[0].rows { row throws(StoreError) in try row.text(0) }.first
            if let locked { lockedUsers.insert(locked) }
            let identity = try results[1].rows(IdentityRows.decode).first
            guard let identity, identity.localId != locked, attempts < 4 else { return identity }
        }
    }

    func identities(email: String) throws -> [ProviderIdentity] {
        let select = """
            SELECT \(IdentityRows.columns) FROM identities WHERE email_lower = $1
            ORDER BY linked_at, provider_id, federated_id
            """
        let email: [PGValue] = [.init(email.lowercased())]
        guard isWritable else { return try run(select, email).rows(IdentityRows.decode) }
        let results = try run([(Self.lockIdentityOwnersByEmail, email), (select, email)])
        lockedUsers.formUnion(try results[0].rows { row throws(StoreError) in try row.text(0) })
        return try results[1].rows(IdentityRows.decode)
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
