import AuthCore
import Storage
import Testing

@Suite("UserStore conformance: tokens, keys and settings")
struct TokenConformanceTests {
    @Test("refresh tokens are found by their user and hash, and revoked per user", arguments: StoreFactory.all)
    func refreshTokens(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let token = Fixture.refreshToken("r1", localId: "a")
            try await store.write { tx in
                try tx.insertUser(Fixture.user("a"))
                try tx.insertUser(Fixture.user("b"))
                try tx.insertRefreshToken(token)
                try tx.insertRefreshToken(Fixture.refreshToken("r2", localId: "a"))
                try tx.insertRefreshToken(Fixture.refreshToken("r3", localId: "b"))
            }
            #expect(try await store.read { try $0.refreshToken(localId: "a", hash: Fixture.hash("r1")) } == token)
            #expect(try await store.read { try $0.refreshToken(localId: "a", hash: Fixture.hash("nope")) } == nil)
            // Another user's token is not found through this user.
            #expect(try await store.read { try $0.refreshToken(localId: "b", hash: Fixture.hash("r1")) } == nil)
            #expect(try await store.read { try $0.refreshToken(localId: "ghost", hash: Fixture.hash("r1")) } == nil)
            let revoked = try await store.write { tx in
                [try tx.revokeRefreshTokens(localId: "a", issuedAtOrBefore: nil),
                 try tx.revokeRefreshTokens(localId: "a", issuedAtOrBefore: nil)]
            }
            #expect(revoked == [2, 0])
            let left = try await store.read { tx in
                [try tx.refreshToken(localId: "a", hash: Fixture.hash("r2")),
                 try tx.refreshToken(localId: "b", hash: Fixture.hash("r3"))]
            }
            #expect(left.map { $0?.localId } == [nil, "b"])
        }
    }

    @Test("revocation acts at the call, not by timestamp: a token stored later in the same second survives",
          arguments: StoreFactory.all)
    func revocationIsAnInstant(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let second: Int64 = 1_700_000_000
            try await store.write { tx in
                try tx.insertUser(Fixture.user("a"))
                try tx.insertUser(Fixture.user("b"))
                try tx.insertRefreshToken(Fixture.refreshToken("before", localId: "a", issuedAt: second))
                try tx.insertRefreshToken(Fixture.refreshToken("other-user", localId: "b", issuedAt: second))
            }
            let revoked = try await store.write { tx in
                let count = try tx.revokeRefreshTokens(localId: "a", issuedAtOrBefore: nil)
                // The caller's fresh session, issued in the same second, in the same transaction.
                try tx.insertRefreshToken(Fixture.refreshToken("after", localId: "a", issuedAt: second))
                return count
            }
            #expect(revoked == 1)
            let left = try await store.read { tx in
                try [("a", "before"), ("a", "after"), ("b", "other-user")].map {
                    try tx.refreshToken(localId: $0.0, hash: Fixture.hash($0.1)) != nil
                }
            }
            #expect(left == [false, true, true])
        }
    }

    @Test("revocation bounded by a second takes the tokens issued in or before it", arguments: StoreFactory.all)
    func revocationUpToASecond(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("a"))
                for (name, second) in [("t99", Int64(99)), ("t100", 100), ("t101", 101)] {
                    try tx.insertRefreshToken(Fixture.refreshToken(name, localId: "a", issuedAt: second))
                }
            }
            #expect(try await store.write { try $0.revokeRefreshTokens(localId: "a", issuedAtOrBefore: 100) } == 2)
            let left = try await store.read { tx in
                try ["t99", "t100", "t101"].map { try tx.refreshToken(localId: "a", hash: Fixture.hash($0)) != nil }
            }
            #expect(left == [false, false, true])
        }
    }

    @Test("a revocation rolled back with its transaction revokes nothing", arguments: StoreFactory.all)
    func revocationRollsBack(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("a"))
                try tx.insertRefreshToken(Fixture.refreshToken("r1", localId: "a"))
            }
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    _ = try tx.revokeRefreshTokens(localId: "a", issuedAtOrBefore: nil)
                    throw Abort()
                }
            }
            #expect(try await store.read { try $0.refreshToken(localId: "a", hash: Fixture.hash("r1")) } != nil)
            await #expect(throws: StoreError.readOnly) {
                try await store.read { try $0.revokeRefreshTokens(localId: "a", issuedAtOrBefore: nil) }
            }
        }
    }

    @Test("a refresh token needs a hash unique for its user and an existing user", arguments: StoreFactory.all)
    func refreshTokenConstraints(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("a"))
                try tx.insertUser(Fixture.user("b"))
                try tx.insertRefreshToken(Fixture.refreshToken("r1", localId: "a"))
            }
            await #expect(throws: StoreError.uniqueViolation(.refreshToken)) {
                try await store.write { try $0.insertRefreshToken(Fixture.refreshToken("r1", localId: "a")) }
            }
            // Every token names its user, so the same hash under another user is another key (a token string,
            // and so its hash, can only ever belong to one user); each is found only through its own user.
            let otherUsers = Fixture.refreshToken("r1", localId: "b")
            try await store.write { try $0.insertRefreshToken(otherUsers) }
            #expect(try await store.read { try $0.refreshToken(localId: "b", hash: Fixture.hash("r1")) } == otherUsers)
            await #expect(throws: StoreError.notFound) {
                try await store.write { try $0.insertRefreshToken(Fixture.refreshToken("r9", localId: "ghost")) }
            }
        }
    }

    @Test("signing keys list by creation time and update by kid", arguments: StoreFactory.all)
    func signingKeys(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertSigningKey(Fixture.signingKey("k-late", createdAt: 300))
                try tx.insertSigningKey(Fixture.signingKey("k-b", createdAt: 100))
                try tx.insertSigningKey(Fixture.signingKey("k-a", createdAt: 100))
            }
            #expect(try await store.read { try $0.signingKeys().map(\.kid) } == ["k-a", "k-b", "k-late"])
            var retired = Fixture.signingKey("k-a", createdAt: 100)
            retired.unpublishAt = 5_000
            let update = retired
            try await store.write { try $0.updateSigningKey(update) }
            #expect(try await store.read { try $0.signingKeys().first } == update)
            await #expect(throws: StoreError.uniqueViolation(.signingKey)) {
                try await store.write { try $0.insertSigningKey(Fixture.signingKey("k-b", createdAt: 1)) }
            }
            await #expect(throws: StoreError.notFound) {
                try await store.write { try $0.updateSigningKey(Fixture.signingKey("k-none", createdAt: 1)) }
            }
        }
    }

    @Test("a one-time token can be peeked repeatedly but taken once", arguments: StoreFactory.all)
    func takeOnce(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let token = Fixture.oneTimeToken("code")
            try await store.write { try $0.insertOneTimeToken(token) }
            let peeks = try await store.read { tx in
                [try tx.oneTimeToken(kind: "oob", hash: token.tokenHash),
                 try tx.oneTimeToken(kind: "oob", hash: token.tokenHash),
                 try tx.oneTimeToken(kind: "nonce", hash: token.tokenHash)]
            }
            #expect(peeks == [token, token, nil])
            let takes = try await store.write { tx in
                [try tx.takeOneTimeToken(kind: "oob", hash: token.tokenHash),
                 try tx.takeOneTimeToken(kind: "oob", hash: token.tokenHash)]
            }
            #expect(takes == [token, nil])
            #expect(try await store.read { try $0.oneTimeToken(kind: "oob", hash: token.tokenHash) } == nil)
        }
    }

    @Test("one-time tokens are unique per kind and hash", arguments: StoreFactory.all)
    func oneTimeConstraint(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertOneTimeToken(Fixture.oneTimeToken("v", kind: "oob"))
                try tx.insertOneTimeToken(Fixture.oneTimeToken("v", kind: "nonce"))
            }
            await #expect(throws: StoreError.uniqueViolation(.oneTimeToken)) {
                try await store.write { try $0.insertOneTimeToken(Fixture.oneTimeToken("v", kind: "oob")) }
            }
        }
    }

    @Test("taking an expired token still returns it, and expiry sweeps only expired ones", arguments: StoreFactory.all)
    func expiry(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertOneTimeToken(Fixture.oneTimeToken("old", expiresAt: 100))
                try tx.insertOneTimeToken(Fixture.oneTimeToken("older", expiresAt: 50))
                try tx.insertOneTimeToken(Fixture.oneTimeToken("edge", expiresAt: 200))
                try tx.insertOneTimeToken(Fixture.oneTimeToken("fresh", expiresAt: 900))
            }
            let taken = try await store.write { try $0.takeOneTimeToken(kind: "oob", hash: Fixture.hash("old")) }
            #expect(taken?.expiresAt == 100)
            let swept = try await store.write { tx in
                [try tx.deleteExpiredOneTimeTokens(before: 200), try tx.deleteExpiredOneTimeTokens(before: 200)]
            }
            #expect(swept == [1, 0])
            let left = try await store.read { tx in
                ["older", "edge", "fresh"].map { try? tx.oneTimeToken(kind: "oob", hash: Fixture.hash($0)) != nil }
            }
            #expect(left == [false, true, true])
        }
    }

    @Test("settings are set, replaced and deleted", arguments: StoreFactory.all)
    func settings(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            #expect(try await store.read { try $0.setting("allowDuplicateEmails") } == nil)
            try await store.write { try $0.setSetting("allowDuplicateEmails", value: "false") }
            try await store.write { try $0.setSetting("allowDuplicateEmails", value: "true") }
            try await store.write { try $0.setSetting("other", value: "") }
            #expect(try await store.read { try $0.setting("allowDuplicateEmails") } == "true")
            #expect(try await store.read { try $0.setting("other") } == "")
            try await store.write { tx in
                try tx.setSetting("allowDuplicateEmails", value: nil)
                try tx.setSetting("never-set", value: nil)
            }
            #expect(try await store.read { try $0.setting("allowDuplicateEmails") } == nil)
        }
    }
}
