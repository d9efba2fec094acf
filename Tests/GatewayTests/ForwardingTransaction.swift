import AuthCore
import Storage

/// A transaction that passes every call to `inner`; a test double overrides the calls it changes.
class ForwardingTransaction: StoreTransaction {
    let inner: any StoreTransaction

    init(_ inner: any StoreTransaction) { self.inner = inner }

    func user(localId: String) throws -> UserRecord? { try inner.user(localId: localId) }
    func user(email: String) throws -> UserRecord? { try inner.user(email: email) }
    func user(phoneNumber: String) throws -> UserRecord? { try inner.user(phoneNumber: phoneNumber) }
    func insertUser(_ user: UserRecord) throws { try inner.insertUser(user) }
    func updateUser(_ user: UserRecord) throws { try inner.updateUser(user) }
    func recordRefresh(localId: String, at ms: Int64) throws { try inner.recordRefresh(localId: localId, at: ms) }
    func deleteUser(localId: String) throws -> Bool { try inner.deleteUser(localId: localId) }
    func users(afterLocalId: String?, limit: Int) throws -> [UserRecord] {
        try inner.users(afterLocalId: afterLocalId, limit: limit)
    }
    func usersDescending(beforeLocalId: String?, limit: Int) throws -> [UserRecord] {
        try inner.usersDescending(beforeLocalId: beforeLocalId, limit: limit)
    }
    func userCount() throws -> Int { try inner.userCount() }
    func abandonedAnonymousUsers(createdBefore ms: Int64, limit: Int) throws -> [String] {
        try inner.abandonedAnonymousUsers(createdBefore: ms, limit: limit)
    }
    func identities(localId: String) throws -> [ProviderIdentity] { try inner.identities(localId: localId) }
    func identity(providerId: String, federatedId: String) throws -> ProviderIdentity? {
        try inner.identity(providerId: providerId, federatedId: federatedId)
    }
    func identities(email: String) throws -> [ProviderIdentity] { try inner.identities(email: email) }
    func insertIdentity(_ identity: ProviderIdentity) throws { try inner.insertIdentity(identity) }
    func updateIdentity(_ identity: ProviderIdentity) throws { try inner.updateIdentity(identity) }
    func deleteIdentity(localId: String, providerId: String) throws -> Bool {
        try inner.deleteIdentity(localId: localId, providerId: providerId)
    }
    func insertRefreshToken(_ token: RefreshTokenRecord) throws { try inner.insertRefreshToken(token) }
    func refreshToken(localId: String, hash: [UInt8]) throws -> RefreshTokenRecord? {
        try inner.refreshToken(localId: localId, hash: hash)
    }
    func revokeRefreshTokens(localId: String, issuedAtOrBefore seconds: Int64?) throws -> Int {
        try inner.revokeRefreshTokens(localId: localId, issuedAtOrBefore: seconds)
    }
    func signingKeys() throws -> [SigningKeyRecord] { try inner.signingKeys() }
    func insertSigningKey(_ key: SigningKeyRecord) throws { try inner.insertSigningKey(key) }
    func updateSigningKey(_ key: SigningKeyRecord) throws { try inner.updateSigningKey(key) }
    func insertOneTimeToken(_ token: OneTimeTokenRecord) throws { try inner.insertOneTimeToken(token) }
    func oneTimeToken(kind: String, hash: [UInt8]) throws -> OneTimeTokenRecord? {
        try inner.oneTimeToken(kind: kind, hash: hash)
    }
    func takeOneTimeToken(kind: String, hash: [UInt8]) throws -> OneTimeTokenRecord? {
        try inner.takeOneTimeToken(kind: kind, hash: hash)
    }
    func deleteExpiredOneTimeTokens(before ms: Int64) throws -> Int { try inner.deleteExpiredOneTimeTokens(before: ms) }
    func insertOutboxItem(_ item: OutboxItem) throws { try inner.insertOutboxItem(item) }
    func dueOutboxItems(kind: String, dueBy ms: Int64, limit: Int) throws -> [OutboxItem] {
        try inner.dueOutboxItems(kind: kind, dueBy: ms, limit: limit)
    }
    func outboxItems(kind: String) throws -> [OutboxItem] { try inner.outboxItems(kind: kind) }
    func updateOutboxItem(_ item: OutboxItem) throws { try inner.updateOutboxItem(item) }
    func deleteOutboxItem(id: String) throws -> Bool { try inner.deleteOutboxItem(id: id) }
    func addToCounter(_ key: String, windowEndsAt: Int64, delta: Int, limit: Int) throws -> Int? {
        try inner.addToCounter(key, windowEndsAt: windowEndsAt, delta: delta, limit: limit)
    }
    func counter(_ key: String, windowEndsAt: Int64) throws -> Int {
        try inner.counter(key, windowEndsAt: windowEndsAt)
    }
    func deleteExpiredCounters(endedBy ms: Int64) throws -> Int { try inner.deleteExpiredCounters(endedBy: ms) }
    func setting(_ key: String) throws -> String? { try inner.setting(key) }
    func setSetting(_ key: String, value: String?) throws { try inner.setSetting(key, value: value) }
    func refreshTokens(after: RefreshTokenKey?, limit: Int) throws -> [RefreshTokenRecord] {
        try inner.refreshTokens(after: after, limit: limit)
    }
    func oneTimeTokens(after: (kind: String, tokenHash: [UInt8])?, limit: Int) throws -> [OneTimeTokenRecord] {
        try inner.oneTimeTokens(after: after, limit: limit)
    }
    func outboxItems(afterId: String?, limit: Int) throws -> [OutboxItem] {
        try inner.outboxItems(afterId: afterId, limit: limit)
    }
    func settings() throws -> [String: String] { try inner.settings() }
}
