import AuthCore
import Storage
import Testing

@Suite("UserStore conformance: identities")
struct IdentityConformanceTests {
    @Test("an identity reads back unchanged, and a user's identities come in link order", arguments: StoreFactory.all)
    func roundTripAndOrder(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let full = ProviderIdentity(
                providerId: "apple.com", federatedId: "001.abc", localId: "u", email: "Ann@Example.com",
                displayName: "Ann", photoUrl: "https://p", screenName: "ann", phoneNumber: "+1",
                rawUserInfo: #"{"sub":"001.abc"}"#, sealedSecrets: [9, 8, 7], linkedAt: 20)
            try await store.write { tx in
                try tx.insertUser(Fixture.user("u"))
                try tx.insertIdentity(full)
                try tx.insertIdentity(Fixture.identity("password", "ann@example.com", localId: "u", linkedAt: 20))
                try tx.insertIdentity(Fixture.identity("facebook.com", "fb-1", localId: "u", linkedAt: 5))
            }
            let found = try await store.read { tx in
                (try tx.identity(providerId: "apple.com", federatedId: "001.abc"),
                 try tx.identities(localId: "u").map(\.providerId),
                 try tx.identity(providerId: "apple.com", federatedId: "001.ABC"))
            }
            #expect(found.0 == full)
            #expect(found.1 == ["facebook.com", "apple.com", "password"])
            #expect(found.2 == nil)
        }
    }

    @Test("identities are found by email ignoring case", arguments: StoreFactory.all)
    func byEmail(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("u1"))
                try tx.insertUser(Fixture.user("u2"))
                try tx.insertIdentity(Fixture.identity("apple.com", "a", localId: "u1", email: "Ann@X.io", linkedAt: 2))
                try tx.insertIdentity(Fixture.identity("facebook.com", "f", localId: "u2", email: "ann@x.io", linkedAt: 1))
                try tx.insertIdentity(Fixture.identity("password", "p", localId: "u1", email: "bob@x.io", linkedAt: 0))
                try tx.insertIdentity(Fixture.identity("telegram", "t", localId: "u2", linkedAt: 0))
            }
            let found = try await store.read { tx in
                (try tx.identities(email: "ANN@x.io").map(\.federatedId), try tx.identities(email: "nobody@x.io"))
            }
            #expect(found.0 == ["f", "a"])
            #expect(found.1.isEmpty)
        }
    }

    @Test("inserting an identity enforces both identity constraints and the owning user", arguments: StoreFactory.all)
    func insertConstraints(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("u1"))
                try tx.insertUser(Fixture.user("u2"))
                try tx.insertIdentity(Fixture.identity("apple.com", "sub", localId: "u1"))
            }
            await #expect(throws: StoreError.uniqueViolation(.identity)) {
                try await store.write { try $0.insertIdentity(Fixture.identity("apple.com", "sub", localId: "u2")) }
            }
            await #expect(throws: StoreError.uniqueViolation(.userProvider)) {
                try await store.write { try $0.insertIdentity(Fixture.identity("apple.com", "other", localId: "u1")) }
            }
            await #expect(throws: StoreError.notFound) {
                try await store.write { try $0.insertIdentity(Fixture.identity("apple.com", "x", localId: "ghost")) }
            }
            try await store.write { try $0.insertIdentity(Fixture.identity("facebook.com", "sub", localId: "u1")) }
            #expect(try await store.read { try $0.identities(localId: "u1").count } == 2)
        }
    }

    @Test("updating an identity replaces it, federated id included", arguments: StoreFactory.all)
    func update(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("u1"))
                try tx.insertUser(Fixture.user("u2"))
                try tx.insertIdentity(Fixture.identity("password", "old@x.io", localId: "u1", email: "old@x.io"))
                try tx.insertIdentity(Fixture.identity("password", "taken@x.io", localId: "u2"))
            }
            var changed = Fixture.identity("password", "new@x.io", localId: "u1", email: "New@x.io", linkedAt: 99)
            changed.displayName = "Renamed"
            changed.sealedSecrets = [1, 2]
            let updated = changed
            try await store.write { try $0.updateIdentity(updated) }
            let found = try await store.read { tx in
                (try tx.identities(localId: "u1"), try tx.identity(providerId: "password", federatedId: "old@x.io"),
                 try tx.identities(email: "new@x.io"), try tx.identities(email: "old@x.io"))
            }
            #expect(found.0 == [updated])
            #expect(found.1 == nil)
            #expect(found.2 == [updated])
            #expect(found.3.isEmpty)
            await #expect(throws: StoreError.uniqueViolation(.identity)) {
                try await store.write {
                    try $0.updateIdentity(Fixture.identity("password", "taken@x.io", localId: "u1"))
                }
            }
            await #expect(throws: StoreError.notFound) {
                try await store.write { try $0.updateIdentity(Fixture.identity("apple.com", "z", localId: "u1")) }
            }
        }
    }

    @Test("deleting an identity frees its provider account", arguments: StoreFactory.all)
    func delete(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("u1"))
                try tx.insertUser(Fixture.user("u2"))
                try tx.insertIdentity(Fixture.identity("apple.com", "sub", localId: "u1"))
            }
            let deleted = try await store.write { tx in
                [try tx.deleteIdentity(localId: "u1", providerId: "apple.com"),
                 try tx.deleteIdentity(localId: "u1", providerId: "apple.com"),
                 try tx.deleteIdentity(localId: "u2", providerId: "facebook.com")]
            }
            #expect(deleted == [true, false, false])
            try await store.write { try $0.insertIdentity(Fixture.identity("apple.com", "sub", localId: "u2")) }
            let owner = try await store.read { try $0.identity(providerId: "apple.com", federatedId: "sub")?.localId }
            #expect(owner == "u2")
            #expect(try await store.read { try $0.user(localId: "u1") } != nil)
        }
    }
}
