import AuthCore

/// One transaction of `InMemoryUserStore`: a private copy of the state that the store commits by
/// swapping it in when the body returns.
final class MemoryTransaction: StoreTransaction {
    private(set) var state: MemoryState
    private let writable: Bool

    init(state: MemoryState, writable: Bool) {
        self.state = state
        self.writable = writable
    }

    /// Applies a mutation to the private copy, refusing in a read transaction.
    private func mutate<T>(_ change: (inout MemoryState) throws(StoreError) -> T) throws(StoreError) -> T {
        guard writable else { throw .readOnly }
        return try change(&state)
    }

    // MARK: Users

    func user(localId: String) throws -> UserRecord? { state.users[localId] }
    func user(email: String) throws -> UserRecord? { state.user(email: email) }
    func user(phoneNumber: String) throws -> UserRecord? { state.user(phoneNumber: phoneNumber) }
    func insertUser(_ user: UserRecord) throws { try mutate { s throws(StoreError) in try s.insertUser(user) } }
    func updateUser(_ user: UserRecord) throws { try mutate { s throws(StoreError) in try s.updateUser(user) } }
    func recordRefresh(localId: String, at ms: Int64) throws {
        try mutate { s throws(StoreError) in try s.recordRefresh(localId: localId, at: ms) }
    }
    func deleteUser(localId: String) throws -> Bool { try mutate { $0.deleteUser(localId: localId) } }
    func userCount() throws -> Int { state.users.count }

    func users(afterLocalId: String?, limit: Int) throws -> [UserRecord] {
        state.users(afterLocalId: afterLocalId, limit: limit)
    }

    func usersDescending(beforeLocalId: String?, limit: Int) throws -> [UserRecord] {
        state.usersDescending(beforeLocalId: beforeLocalId, limit: limit)
    }

    func abandonedAnonymousUsers(createdBefore ms: Int64, limit: Int) throws -> [String] {
        state.abandonedAnonymousUsers(createdBefore: ms, limit: limit)
    }

    // MARK: Identities

    func identities(localId: String) throws -> [ProviderIdentity] { state.identities(localId: localId) }
    func identities(email: String) throws -> [ProviderIdentity] { state.identities(email: email) }

    func identity(providerId: String, federatedId: String) throws -> ProviderIdentity? {
        state.identities[.init(providerId: providerId, federatedId: federatedId)]
    }

    func insertIdentity(_ identity: ProviderIdentity) throws {
        try mutate { s throws(StoreError) in try s.insertIdentity(identity) }
    }

    func updateIdentity(_ identity: ProviderIdentity) throws {
        try mutate { s throws(StoreError) in try s.updateIdentity(identity) }
    }

    func deleteIdentity(localId: String, providerId: String) throws -> Bool {
        try mutate { $0.deleteIdentity(localId: localId, providerId: providerId) }
    }

    // MARK: Refresh tokens

    func insertRefreshToken(_ token: RefreshTokenRecord) throws {
        try mutate { s throws(StoreError) in try s.insertRefreshToken(token) }
    }

    func refreshToken(localId: String, hash: [UInt8]) throws -> RefreshTokenRecord? {
        state.refreshTokens[RefreshTokenKey(localId: localId, tokenHash: hash)]
    }

    func revokeRefreshTokens(localId: String, issuedAtOrBefore seconds: Int64?) throws -> Int {
        try mutate { $0.revokeRefreshTokens(localId: localId, issuedAtOrBefore: seconds) }
    }

    // MARK: Signing keys

    func signingKeys() throws -> [SigningKeyRecord] { state.orderedSigningKeys() }

    func insertSigningKey(_ key: SigningKeyRecord) throws {
        try mutate { s throws(StoreError) in try s.insertSigningKey(key) }
    }

    func updateSigningKey(_ key: SigningKeyRecord) throws {
        try mutate { s throws(StoreError) in try s.updateSigningKey(key) }
    }

    // MARK: Single-use tokens

    func insertOneTimeToken(_ token: OneTimeTokenRecord) throws {
        try mutate { s throws(StoreError) in try s.insertOneTimeToken(token) }
    }

    func oneTimeToken(kind: String, hash: [UInt8]) throws -> OneTimeTokenRecord? {
        state.oneTimeTokens[.init(kind: kind, tokenHash: hash)]
    }

    func takeOneTimeToken(kind: String, hash: [UInt8]) throws -> OneTimeTokenRecord? {
        try mutate { $0.oneTimeTokens.removeValue(forKey: .init(kind: kind, tokenHash: hash)) }
    }

    func deleteExpiredOneTimeTokens(before ms: Int64) throws -> Int {
        try mutate { $0.deleteExpiredOneTimeTokens(before: ms) }
    }

    // MARK: Outbox

    func insertOutboxItem(_ item: OutboxItem) throws {
        try mutate { s throws(StoreError) in try s.insertOutboxItem(item) }
    }

    func dueOutboxItems(kind: String, dueBy ms: Int64, limit: Int) throws -> [OutboxItem] {
        state.dueOutboxItems(kind: kind, dueBy: ms, limit: limit)
    }

    func outboxItems(kind: String) throws -> [OutboxItem] { state.outboxItems(kind: kind) }

    func updateOutboxItem(_ item: OutboxItem) throws {
        try mutate { s throws(StoreError) in try s.updateOutboxItem(item) }
    }

    func deleteOutboxItem(id: String) throws -> Bool {
        try mutate { $0.outbox.removeValue(forKey: id) != nil }
    }

    // MARK: Counters

    func addToCounter(_ key: String, windowEndsAt: Int64, delta: Int, limit: Int) throws -> Int? {
        try mutate { $0.addToCounter(key, windowEndsAt: windowEndsAt, delta: delta, limit: limit) }
    }

    func counter(_ key: String, windowEndsAt: Int64) throws -> Int {
        state.counter(key, windowEndsAt: windowEndsAt)
    }

    func deleteExpiredCounters(endedBy ms: Int64) throws -> Int {
        try mutate { $0.deleteExpiredCounters(endedBy: ms) }
    }

    // MARK: Settings

    func setting(_ key: String) throws -> String? { state.settings[key] }

    func setSetting(_ key: String, value: String?) throws {
        try mutate { $0.settings[key] = value }
    }

    // MARK: Listing every record

    func refreshTokens(after: RefreshTokenKey?, limit: Int) throws -> [RefreshTokenRecord] {
        let keys = state.refreshTokens.keys.filter { key in after.map { $0.precedes(key) } ?? true }
        return keys.sorted { $0.precedes($1) }.prefix(max(0, limit)).compactMap { state.refreshTokens[$0] }
    }

    func oneTimeTokens(after: (kind: String, tokenHash: [UInt8])?, limit: Int) throws -> [OneTimeTokenRecord] {
        func precedes(_ a: (String, [UInt8]), _ b: (String, [UInt8])) -> Bool {
            a.0 != b.0 ? a.0.precedesInByteOrder(b.0) : a.1.lexicographicallyPrecedes(b.1)
        }
        let keys = state.oneTimeTokens.keys.filter { key in
            after.map { precedes(($0.kind, $0.tokenHash), (key.kind, key.tokenHash)) } ?? true
        }
        return keys.sorted { precedes(($0.kind, $0.tokenHash), ($1.kind, $1.tokenHash)) }
            .prefix(max(0, limit)).compactMap { state.oneTimeTokens[$0] }
    }

    func outboxItems(afterId: String?, limit: Int) throws -> [OutboxItem] {
        let ids = state.outbox.keys.filter { id in afterId.map { $0.precedesInByteOrder(id) } ?? true }
        return ids.sorted { $0.precedesInByteOrder($1) }.prefix(max(0, limit)).compactMap { state.outbox[$0] }
    }

    func settings() throws -> [String: String] { state.settings }
}
