import AuthCore

/// The whole content of an `InMemoryUserStore` as one value, with the secondary indexes that back its
/// unique constraints. Being a value is what makes transactions simple: a write works on a copy and
/// commits by replacing the original. Each mutating method checks every constraint before it changes
/// anything, so a throwing call leaves the state as it was.
struct MemoryState: Sendable {
    struct IdentityKey: Hashable, Sendable {
        var providerId: String
        var federatedId: String
    }

    struct OneTimeKey: Hashable, Sendable {
        var kind: String
        var tokenHash: [UInt8]
    }

    var users: [String: UserRecord] = [:]
    var localIdByEmail: [String: String] = [:]
    var localIdByPhone: [String: String] = [:]
    var identities: [IdentityKey: ProviderIdentity] = [:]
    /// localId → providerId → key of that user's identity.
    var identityKeysByUser: [String: [String: IdentityKey]] = [:]
    var refreshTokens: [RefreshTokenKey: RefreshTokenRecord] = [:]
    var signingKeys: [String: SigningKeyRecord] = [:]
    var oneTimeTokens: [OneTimeKey: OneTimeTokenRecord] = [:]
    var outbox: [String: OutboxItem] = [:]
    var settings: [String: String] = [:]
    var counters: [String: Counter] = [:]

    // MARK: Users

    func user(email: String) -> UserRecord? {
        localIdByEmail[email].flatMap { users[$0] }
    }

    func user(phoneNumber: String) -> UserRecord? {
        localIdByPhone[phoneNumber].flatMap { users[$0] }
    }

    mutating func insertUser(_ user: UserRecord) throws(StoreError) {
        guard users[user.localId] == nil else { throw .uniqueViolation(.localId) }
        try checkContactsAreFree(for: user)
        users[user.localId] = user
        indexContacts(of: user)
    }

    mutating func updateUser(_ user: UserRecord) throws(StoreError) {
        guard let old = users[user.localId] else { throw .notFound }
        try checkContactsAreFree(for: user)
        unindexContacts(of: old)
        users[user.localId] = user
        indexContacts(of: user)
    }

    mutating func recordRefresh(localId: String, at ms: Int64) throws(StoreError) {
        guard users[localId] != nil else { throw .notFound }
        users[localId]?.lastRefreshAt = ms
    }

    mutating func deleteUser(localId: String) -> Bool {
        guard let old = users.removeValue(forKey: localId) else { return false }
        unindexContacts(of: old)
        for key in (identityKeysByUser.removeValue(forKey: localId) ?? [:]).values {
            identities[key] = nil
        }
        refreshTokens = refreshTokens.filter { $0.value.localId != localId }
        return true
    }

    func users(afterLocalId: String?, limit: Int) -> [UserRecord] {
        guard limit > 0 else { return [] }
        let ids = users.keys.filter { id in afterLocalId.map { $0.precedesInByteOrder(id) } ?? true }
        return ids.sorted { $0.precedesInByteOrder($1) }.prefix(limit).compactMap { users[$0] }
    }

    func usersDescending(beforeLocalId: String?, limit: Int) -> [UserRecord] {
        guard limit > 0 else { return [] }
        let ids = users.keys.filter { id in beforeLocalId.map { id.precedesInByteOrder($0) } ?? true }
        return ids.sorted { $1.precedesInByteOrder($0) }.prefix(limit).compactMap { users[$0] }
    }

    func abandonedAnonymousUsers(createdBefore ms: Int64, limit: Int) -> [String] {
        guard limit > 0 else { return [] }
        let abandoned = users.values.filter { user in
            user.email == nil && user.phoneNumber == nil && user.password == nil && user.createdAt < ms
                && (identityKeysByUser[user.localId] ?? [:]).isEmpty
        }
        let oldestFirst = abandoned.sorted { a, b in
            a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.localId.precedesInByteOrder(b.localId)
        }
        return oldestFirst.prefix(limit).map(\.localId)
    }

    private func checkContactsAreFree(for user: UserRecord) throws(StoreError) {
        if let email = user.email, let owner = localIdByEmail[email], owner != user.localId {
            throw .uniqueViolation(.email)
        }
        if let phone = user.phoneNumber, let owner = localIdByPhone[phone], owner != user.localId {
            throw .uniqueViolation(.phoneNumber)
        }
    }

    private mutating func indexContacts(of user: UserRecord) {
        if let email = user.email { localIdByEmail[email] = user.localId }
        if let phone = user.phoneNumber { localIdByPhone[phone] = user.localId }
    }

    private mutating func unindexContacts(of user: UserRecord) {
        if let email = user.email { localIdByEmail[email] = nil }
        if let phone = user.phoneNumber { localIdByPhone[phone] = nil }
    }

    // MARK: Identities

    func identities(localId: String) -> [ProviderIdentity] {
        (identityKeysByUser[localId] ?? [:]).values.compactMap { identities[$0] }.sorted(by: linkOrder)
    }

    func identities(email: String) -> [ProviderIdentity] {
        let wanted = email.lowercased()
        return identities.values.filter { $0.email?.lowercased() == wanted }.sorted(by: linkOrder)
    }

    mutating func insertIdentity(_ identity: ProviderIdentity) throws(StoreError) {
        let key = IdentityKey(providerId: identity.providerId, federatedId: identity.federatedId)
        guard identities[key] == nil else { throw .uniqueViolation(.identity) }
        guard identityKeysByUser[identity.localId]?[identity.providerId] == nil else {
            throw .uniqueViolation(.userProvider)
        }
        guard users[identity.localId] != nil else { throw .notFound }
        identities[key] = identity
        identityKeysByUser[identity.localId, default: [:]][identity.providerId] = key
    }

    mutating func updateIdentity(_ identity: ProviderIdentity) throws(StoreError) {
        guard let oldKey = identityKeysByUser[identity.localId]?[identity.providerId] else { throw .notFound }
        let key = IdentityKey(providerId: identity.providerId, federatedId: identity.federatedId)
        guard key == oldKey || identities[key] == nil else { throw .uniqueViolation(.identity) }
        identities[oldKey] = nil
        identities[key] = identity
        identityKeysByUser[identity.localId, default: [:]][identity.providerId] = key
    }

    mutating func deleteIdentity(localId: String, providerId: String) -> Bool {
        guard let key = identityKeysByUser[localId]?.removeValue(forKey: providerId) else { return false }
        if identityKeysByUser[localId]?.isEmpty == true { identityKeysByUser[localId] = nil }
        identities[key] = nil
        return true
    }

    private func linkOrder(_ a: ProviderIdentity, _ b: ProviderIdentity) -> Bool {
        if a.linkedAt != b.linkedAt { return a.linkedAt < b.linkedAt }
        if a.providerId != b.providerId { return a.providerId.precedesInByteOrder(b.providerId) }
        return a.federatedId.precedesInByteOrder(b.federatedId)
    }
}

extension String {
    /// UTF-8 byte order: what SQLite's BINARY collation and PostgreSQL's `C` collation give.
    func precedesInByteOrder(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}
