import AuthCore

/// Copies every record of one store into another, empty one, through the `StoreTransaction` protocol only,
/// so any backend can be copied to any other (`gateway migrate-storage`: SQLite to PostgreSQL and back).
///
/// Sealed values (signing keys, provider secrets, queued mail) are copied as the bytes they are: the target
/// needs the same master key. Abuse counters are not copied; they are short windows that start again at 0.
/// Each page is its own write transaction on the target, so a copy that fails half-way leaves a partial
/// target: empty it and copy again (the copier refuses a target that holds users, keys or settings).
public struct StoreCopier: Sendable {
    public struct Report: Sendable, Equatable {
        public var users = 0
        public var identities = 0
        public var refreshTokens = 0
        public var signingKeys = 0
        public var oneTimeTokens = 0
        public var outboxItems = 0
        public var settings = 0

        public init(users: Int = 0, identities: Int = 0, refreshTokens: Int = 0, signingKeys: Int = 0,
                    oneTimeTokens: Int = 0, outboxItems: Int = 0, settings: Int = 0) {
            self.users = users
            self.identities = identities
            self.refreshTokens = refreshTokens
            self.signingKeys = signingKeys
            self.oneTimeTokens = oneTimeTokens
            self.outboxItems = outboxItems
            self.settings = settings
        }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case targetNotEmpty

        public var description: String {
            "the target store already holds users, signing keys or settings; copy only into an empty database"
        }
    }

    let source: any UserStore
    let target: any UserStore
    let pageSize: Int

    public init(from source: any UserStore, to target: any UserStore, pageSize: Int = 500) {
        self.source = source
        self.target = target
        self.pageSize = max(1, pageSize)
    }

    public func copy() async throws -> Report {
        let targetIsEmpty = try await target.read { tx in
            try tx.userCount() == 0 && tx.signingKeys().isEmpty && tx.settings().isEmpty
        }
        guard targetIsEmpty else { throw Failure.targetNotEmpty }
        var report = Report()
        try await copyUsers(into: &report)
        try await copyPages(after: nil as RefreshTokenKey?, position: RefreshTokenKey.init(of:),
                            into: &report.refreshTokens,
                            read: { tx, after, limit in try tx.refreshTokens(after: after, limit: limit) },
                            write: { tx, record in try tx.insertRefreshToken(record) })
        try await copyPages(after: nil as OneTimeKey?, position: { OneTimeKey(kind: $0.kind, tokenHash: $0.tokenHash) },
                            into: &report.oneTimeTokens,
                            read: { tx, after, limit in
                                try tx.oneTimeTokens(after: after.map { ($0.kind, $0.tokenHash) }, limit: limit)
                            },
                            write: { tx, record in try tx.insertOneTimeToken(record) })
        try await copyPages(after: nil as String?, position: \.id, into: &report.outboxItems,
                            read: { tx, after, limit in try tx.outboxItems(afterId: after, limit: limit) },
                            write: { tx, record in try tx.insertOutboxItem(record) })
        let keys = try await source.read { tx in try tx.signingKeys() }
        let settings = try await source.read { tx in try tx.settings() }
        try await target.write { tx in
            for key in keys { try tx.insertSigningKey(key) }
            for (key, value) in settings { try tx.setSetting(key, value: value) }
        }
        report.signingKeys = keys.count
        report.settings = settings.count
        return report
    }

    private struct OneTimeKey: Sendable {
        var kind: String
        var tokenHash: [UInt8]
    }

    /// Users page by page, each with its identities, so foreign keys always find their user.
    private func copyUsers(into report: inout Report) async throws {
        var after: String?
        while true {
            let page = try await source.read { [after, pageSize] tx in
                try tx.users(afterLocalId: after, limit: pageSize).map { user in (user, try tx.identities(localId: user.localId)) }
            }
            guard let last = page.last else { return }
            try await target.write { tx in
                for (user, identities) in page {
                    try tx.insertUser(user)
                    for identity in identities { try tx.insertIdentity(identity) }
                }
            }
            report.users += page.count
            report.identities += page.reduce(0) { $0 + $1.1.count }
            after = last.0.localId
        }
    }

    /// Copies one kind of record page by page, resuming each page after the last record copied.
    private func copyPages<Record: Sendable, Position: Sendable>(
        after start: Position?, position: @escaping @Sendable (Record) -> Position, into count: inout Int,
        read: @escaping @Sendable (any StoreTransaction, Position?, Int) throws -> [Record],
        write: @escaping @Sendable (any StoreTransaction, Record) throws -> Void
    ) async throws {
        var after = start
        while true {
            let page = try await source.read { [after, pageSize] tx in try read(tx, after, pageSize) }
            guard let last = page.last else { return }
            try await target.write { tx in for record in page { try write(tx, record) } }
            count += page.count
            after = position(last)
        }
    }
}
