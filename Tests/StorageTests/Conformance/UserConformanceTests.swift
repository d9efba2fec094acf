import AuthCore
import Storage
import Testing
import TestSupport

@Suite("UserStore conformance: users")
struct UserConformanceTests {
    @Test("a user reads back unchanged by localId, email and phone number", arguments: StoreFactory.all)
    func roundTrip(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let user = Fixture.completeUser("alice")
            try await store.write { try $0.insertUser(user) }
            let found = try await store.read { tx in
                [try tx.user(localId: "alice"), try tx.user(email: "alice@example.com"),
                 try tx.user(phoneNumber: user.phoneNumber!)]
            }
            #expect(found == [user, user, user])
        }
    }

    @Test("lookups of absent users return nil", arguments: StoreFactory.all)
    func absentUsers(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertUser(Fixture.user("a", email: "a@x.io", phone: "+1")) }
            let found = try await store.read { tx in
                [try tx.user(localId: "b"), try tx.user(email: "b@x.io"), try tx.user(phoneNumber: "+2")]
            }
            #expect(found == [nil, nil, nil])
        }
    }

    @Test("email lookup is an exact match on the stored email", arguments: StoreFactory.all)
    func emailIsExact(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertUser(Fixture.user("a", email: "ann@x.io")) }
            let upper = try await store.read { try $0.user(email: "Ann@x.io") }
            #expect(upper == nil)
        }
    }

    @Test("inserting a taken localId, email or phone number names the constraint", arguments: StoreFactory.all)
    func insertConstraints(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertUser(Fixture.user("a", email: "a@x.io", phone: "+1")) }
            await #expect(throws: StoreError.uniqueViolation(.localId)) {
                try await store.write { try $0.insertUser(Fixture.user("a")) }
            }
            await #expect(throws: StoreError.uniqueViolation(.email)) {
                try await store.write { try $0.insertUser(Fixture.user("b", email: "a@x.io")) }
            }
            await #expect(throws: StoreError.uniqueViolation(.phoneNumber)) {
                try await store.write { try $0.insertUser(Fixture.user("c", phone: "+1")) }
            }
            #expect(try await store.read { try $0.userCount() } == 1)
        }
    }

    @Test("many users may have no email and no phone number", arguments: StoreFactory.all)
    func absentContactsAreNotUnique(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                for id in ["a", "b", "c"] { try tx.insertUser(Fixture.user(id)) }
            }
            #expect(try await store.read { try $0.userCount() } == 3)
        }
    }

    @Test("updating replaces every field of the user", arguments: StoreFactory.all)
    func updateReplaces(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertUser(Fixture.completeUser("alice")) }
            let plain = Fixture.user("alice", email: "new@x.io", createdAt: 5)
            try await store.write { try $0.updateUser(plain) }
            let stored = try await store.read { tx in
                (try tx.user(localId: "alice"), try tx.user(email: "alice@example.com"))
            }
            #expect(stored.0 == plain)
            #expect(stored.1 == nil)
        }
    }

    @Test("recording a refresh sets lastRefreshAt alone, and only for a user that exists", arguments: StoreFactory.all)
    func recordRefresh(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let alice = Fixture.completeUser("alice")
            try await store.write { tx in
                try tx.insertUser(alice)
                try tx.insertUser(Fixture.user("bob"))
            }
            try await store.write { try $0.recordRefresh(localId: "alice", at: 1_234_567) }
            var expected = alice
            expected.lastRefreshAt = 1_234_567
            let stored = try await store.read { tx in
                (try tx.user(localId: "alice"), try tx.user(localId: "bob")?.lastRefreshAt,
                 try tx.user(email: alice.email ?? ""))
            }
            #expect(stored.0 == expected)
            #expect(stored.1 == Fixture.user("bob").lastRefreshAt)
            #expect(stored.2 == expected, "the email index still finds the user")
            await #expect(throws: StoreError.notFound) {
                try await store.write { try $0.recordRefresh(localId: "zz", at: 1) }
            }
        }
    }

    @Test("updating checks existence and the email and phone constraints", arguments: StoreFactory.all)
    func updateConstraints(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("a", email: "a@x.io", phone: "+1"))
                try tx.insertUser(Fixture.user("b", email: "b@x.io", phone: "+2"))
            }
            await #expect(throws: StoreError.notFound) {
                try await store.write { try $0.updateUser(Fixture.user("zz")) }
            }
            await #expect(throws: StoreError.uniqueViolation(.email)) {
                try await store.write { try $0.updateUser(Fixture.user("b", email: "a@x.io", phone: "+2")) }
            }
            await #expect(throws: StoreError.uniqueViolation(.phoneNumber)) {
                try await store.write { try $0.updateUser(Fixture.user("b", email: "b@x.io", phone: "+1")) }
            }
            try await store.write { try $0.updateUser(Fixture.user("a", email: "a@x.io", phone: "+1", createdAt: 9)) }
            #expect(try await store.read { try $0.user(localId: "a")?.createdAt } == 9)
        }
    }

    @Test("an email given up by one user can be taken by another", arguments: StoreFactory.all)
    func releasedEmailIsReusable(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertUser(Fixture.user("a", email: "shared@x.io")) }
            try await store.write { tx in
                try tx.updateUser(Fixture.user("a", email: "other@x.io"))
                try tx.insertUser(Fixture.user("b", email: "shared@x.io"))
            }
            #expect(try await store.read { try $0.user(email: "shared@x.io")?.localId } == "b")
        }
    }

    @Test("deleting a user removes its identities and refresh tokens", arguments: StoreFactory.all)
    func deleteCascades(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("a", email: "a@x.io"))
                try tx.insertUser(Fixture.user("b"))
                try tx.insertIdentity(Fixture.identity("apple.com", "sub-a", localId: "a"))
                try tx.insertIdentity(Fixture.identity("apple.com", "sub-b", localId: "b"))
                try tx.insertRefreshToken(Fixture.refreshToken("ra", localId: "a"))
                try tx.insertRefreshToken(Fixture.refreshToken("rb", localId: "b"))
            }
            let deleted = try await store.write { tx in
                [try tx.deleteUser(localId: "a"), try tx.deleteUser(localId: "a")]
            }
            #expect(deleted == [true, false])
            let remaining = try await store.read { tx in
                (try tx.identity(providerId: "apple.com", federatedId: "sub-a"),
                 try tx.identities(localId: "a"),
                 try tx.refreshToken(localId: "a", hash: Fixture.hash("ra")),
                 try tx.refreshToken(localId: "b", hash: Fixture.hash("rb"))?.localId,
                 try tx.identities(localId: "b").count)
            }
            #expect(remaining.0 == nil)
            #expect(remaining.1.isEmpty)
            #expect(remaining.2 == nil)
            #expect(remaining.3 == "b")
            #expect(remaining.4 == 1)
            try await store.write { tx in
                try tx.insertUser(Fixture.user("c", email: "a@x.io"))
                try tx.insertIdentity(Fixture.identity("apple.com", "sub-a", localId: "c"))
            }
        }
    }

    @Test("paging lists users in ascending byte order of localId", arguments: StoreFactory.all)
    func paging(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            var generator = SplitMix64(seed: 42)
            let ids = ["B", "a", "a1", "b", "Z9", "c", "ab"]
            let shuffled = ids.shuffled(using: &generator)
            try await store.write { tx in
                for id in shuffled { try tx.insertUser(Fixture.user(id)) }
            }
            let pages = try await store.read { tx in
                [try tx.users(afterLocalId: nil, limit: 3), try tx.users(afterLocalId: "a", limit: 3),
                 try tx.users(afterLocalId: "ab", limit: 10), try tx.users(afterLocalId: "c", limit: 3),
                 try tx.users(afterLocalId: nil, limit: 0)].map { $0.map(\.localId) }
            }
            #expect(pages == [["B", "Z9", "a"], ["a1", "ab", "b"], ["b", "c"], [], []])
        }
    }

    @Test("descending paging lists users in descending byte order of localId", arguments: StoreFactory.all)
    func descendingPaging(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            var generator = SplitMix64(seed: 7)
            let shuffled = ["B", "a", "a1", "b", "Z9", "c", "ab"].shuffled(using: &generator)
            try await store.write { tx in
                for id in shuffled { try tx.insertUser(Fixture.user(id)) }
            }
            let pages = try await store.read { tx in
                [try tx.usersDescending(beforeLocalId: nil, limit: 3), try tx.usersDescending(beforeLocalId: "ab", limit: 3),
                 try tx.usersDescending(beforeLocalId: "a", limit: 10), try tx.usersDescending(beforeLocalId: "B", limit: 3),
                 try tx.usersDescending(beforeLocalId: nil, limit: 0)].map { $0.map(\.localId) }
            }
            #expect(pages == [["c", "b", "ab"], ["a1", "a", "Z9"], ["Z9", "B"], [], []])
        }
    }

    @Test("counting users follows inserts and deletes", arguments: StoreFactory.all)
    func counting(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            #expect(try await store.read { try $0.userCount() } == 0)
            try await store.write { tx in
                for id in 0..<5 { try tx.insertUser(Fixture.user("u\(id)")) }
                _ = try tx.deleteUser(localId: "u3")
            }
            #expect(try await store.read { try $0.userCount() } == 4)
        }
    }

    @Test("abandoned anonymous users are those with nothing to sign in with, oldest first", arguments: StoreFactory.all)
    func abandonedAnonymous(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("anon-late", createdAt: 300))
                try tx.insertUser(Fixture.user("anon-old", createdAt: 100))
                try tx.insertUser(Fixture.user("anon-mid", createdAt: 200))
                try tx.insertUser(Fixture.user("anon-new", createdAt: 900))
                try tx.insertUser(Fixture.user("has-email", email: "e@x.io", createdAt: 100))
                try tx.insertUser(Fixture.user("has-phone", phone: "+1", createdAt: 100))
                try tx.insertUser(Fixture.user("has-password", password: true, createdAt: 100))
                try tx.insertUser(Fixture.user("has-identity", createdAt: 100))
                try tx.insertIdentity(Fixture.identity("facebook.com", "fb", localId: "has-identity"))
            }
            let found = try await store.read { tx in
                [try tx.abandonedAnonymousUsers(createdBefore: 500, limit: 10),
                 try tx.abandonedAnonymousUsers(createdBefore: 500, limit: 2),
                 try tx.abandonedAnonymousUsers(createdBefore: 300, limit: 10),
                 try tx.abandonedAnonymousUsers(createdBefore: 500, limit: 0)]
            }
            #expect(found == [["anon-old", "anon-mid", "anon-late"], ["anon-old", "anon-mid"],
                              ["anon-old", "anon-mid"], []])
        }
    }
}
