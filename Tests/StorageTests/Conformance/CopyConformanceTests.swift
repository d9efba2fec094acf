import AuthCore
import Storage
import Testing

@Suite("UserStore conformance: listing every record and copying between backends")
struct CopyConformanceTests {
    /// A store with some of everything, sealed bytes included, in an order that differs from every listing order.
    private static func populate(_ store: any UserStore) async throws {
        try await store.write { tx in
            for id in ["u333", "u1", "u22"] { try tx.insertUser(Fixture.completeUser(id)) }
            try tx.insertUser(Fixture.user("anon"))
            var identity = Fixture.identity("apple.com", "sub-1", localId: "u1", email: "A@x.io")
            identity.sealedSecrets = [9, 8, 7, 0, 255]
            try tx.insertIdentity(identity)
            try tx.insertIdentity(Fixture.identity("password", "u1@example.com", localId: "u1", linkedAt: 11))
            for (value, owner) in [("rt-b", "u22"), ("rt-a", "u1"), ("rt-c", "anon"), ("rt-d", "u1")] {
                try tx.insertRefreshToken(Fixture.refreshToken(value, localId: owner))
            }
            try tx.insertSigningKey(Fixture.signingKey("k2", createdAt: 2))
            try tx.insertSigningKey(Fixture.signingKey("k1", createdAt: 1))
            for (value, kind) in [("n", "nonce"), ("o2", "oob"), ("o1", "oob"), ("p", "pending")] {
                try tx.insertOneTimeToken(Fixture.oneTimeToken(value, kind: kind))
            }
            try tx.insertOutboxItem(Fixture.outboxItem("m2"))
            try tx.insertOutboxItem(Fixture.outboxItem("r1", kind: "revocation"))
            try tx.insertOutboxItem(Fixture.outboxItem("m1", nextAttemptAt: 5))
            try tx.setSetting("a", value: "1")
            try tx.setSetting("b", value: "two")
        }
    }

    @Test("paged listings return every record once, in the stated order", arguments: StoreFactory.all)
    func listings(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await Self.populate(store)
            let listed = try await store.read { tx in
                (try Self.pages { try tx.refreshTokens(after: $0.map(RefreshTokenKey.init(of:)), limit: 2) },
                 try Self.pages { try tx.oneTimeTokens(after: $0.map { ($0.kind, $0.tokenHash) }, limit: 3) },
                 try Self.pages { try tx.outboxItems(afterId: $0?.id, limit: 2) },
                 try tx.settings())
            }
            // By user ("anon" < "u1" < "u22" in bytes), then by hash within a user.
            let u1Hashes = ["rt-a", "rt-d"].map(Fixture.hash).sorted { $0.lexicographicallyPrecedes($1) }
            #expect(listed.0.map(\.localId) == ["anon", "u1", "u1", "u22"])
            #expect(listed.0.map(\.tokenHash) == [Fixture.hash("rt-c")] + u1Hashes + [Fixture.hash("rt-b")])
            let oobHashes = ["o1", "o2"].map(Fixture.hash).sorted { $0.lexicographicallyPrecedes($1) }
            #expect(listed.1.map(\.kind) == ["nonce", "oob", "oob", "pending"])
            #expect(listed.1.filter { $0.kind == "oob" }.map(\.tokenHash) == oobHashes)
            #expect(listed.2.map(\.id) == ["m1", "m2", "r1"])
            #expect(listed.3 == ["a": "1", "b": "two"])
            let none = try await store.read { tx in
                (try tx.refreshTokens(after: nil, limit: 0), try tx.outboxItems(afterId: nil, limit: 0))
            }
            #expect(none.0.isEmpty && none.1.isEmpty)
        }
    }

    @Test("a copy carries every record, sealed bytes included, to any backend",
          arguments: StoreFactory.all, StoreFactory.all)
    func copy(from source: StoreFactory, to target: StoreFactory) async throws {
        try await withStore(source) { from in
            try await Self.populate(from)
            try await withStore(target) { to in
                let report = try await StoreCopier(from: from, to: to, pageSize: 2).copy()
                #expect(report == .init(users: 4, identities: 2, refreshTokens: 4, signingKeys: 2, oneTimeTokens: 4,
                                        outboxItems: 3, settings: 2))
                let original = try await Self.everything(from)
                let copied = try await Self.everything(to)
                #expect(copied == original)
                await #expect(throws: StoreCopier.Failure.targetNotEmpty) {
                    try await StoreCopier(from: from, to: to).copy()
                }
            }
        }
    }

    /// Every record of the store, in listing order, as one comparable value.
    private static func everything(_ store: any UserStore) async throws -> Snapshot {
        try await store.read { tx in
            let users = try tx.users(afterLocalId: nil, limit: 100)
            return Snapshot(
                users: users, identities: try users.flatMap { try tx.identities(localId: $0.localId) },
                refreshTokens: try tx.refreshTokens(after: nil, limit: 100), signingKeys: try tx.signingKeys(),
                oneTimeTokens: try tx.oneTimeTokens(after: nil, limit: 100),
                outbox: try tx.outboxItems(afterId: nil, limit: 100), settings: try tx.settings())
        }
    }

    private struct Snapshot: Equatable, Sendable {
        var users: [UserRecord]
        var identities: [ProviderIdentity]
        var refreshTokens: [RefreshTokenRecord]
        var signingKeys: [SigningKeyRecord]
        var oneTimeTokens: [OneTimeTokenRecord]
        var outbox: [OutboxItem]
        var settings: [String: String]
    }

    /// Follows a paged listing to its end.
    private static func pages<Record>(_ next: (Record?) throws -> [Record]) throws -> [Record] {
        var all: [Record] = []
        while true {
            let page = try next(all.last)
            if page.isEmpty { return all }
            all += page
        }
    }
}
