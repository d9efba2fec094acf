import AuthCore
import Foundation
import Storage
import Testing

/// Write transactions that read a record, change one part of it and write it back, all at once: every change
/// must survive. A backend running writers concurrently (PostgreSQL) must make each read in a write transaction
/// wait for the writers before it, or a refresh storing `lastRefreshAt` would put back a password or `disabled`
/// that a concurrent change had just replaced.
@Suite("UserStore conformance: concurrent read-modify-writes lose nothing")
struct ReadModifyWriteConformanceTests {
    /// Long enough that, without locking, every transaction of a round reads before the first one writes.
    static let pause = 0.03

    /// Runs `count` write transactions at once; each reads, pauses, then applies change `index`.
    private func race(_ store: any UserStore, _ count: Int,
                      _ body: @escaping @Sendable (Int, any StoreTransaction) throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask { try await store.write { tx in try body(index, tx) } }
            }
            try await group.waitForAll()
        }
    }

    /// One change per field of a user, each to a value the fixture does not have.
    static let userChanges: [@Sendable (inout UserRecord) -> Void] = [
        { $0.displayName = "Ada" },
        { $0.photoUrl = "https://example.com/a.png" },
        { $0.emailVerified = true },
        { $0.disabled = true },
        { $0.customAttributes = #"{"role":"admin"}"# },
        { $0.validSince = 1_800_000_000 },
        { $0.lastLoginAt = 1_800_000_000_001 },
        { $0.lastRefreshAt = 1_800_000_000_002 },
        { $0.password = PasswordCredential(algorithm: "scrypt", parameters: "{}", hash: [9, 9], salt: [8]) },
        { $0.passwordUpdatedAt = 1_800_000_000_003 },
        { $0.emailLinkSignin = true },
        { $0.initialEmail = "first@x.io" },
    ]

    /// Every way of finding a user in a write transaction: by id, by email, by phone number.
    static func findUser(way: Int, _ tx: any StoreTransaction) throws -> UserRecord? {
        switch way {
        case 0: return try tx.user(localId: "u")
        case 1: return try tx.user(email: "u@x.io")
        default: return try tx.user(phoneNumber: "+15550001")
        }
    }

    @Test("each of 12 concurrent transactions changes one field of one user; all 12 changes are kept",
          arguments: StoreFactory.all)
    func userFields(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let original = Fixture.user("u", email: "u@x.io", phone: "+15550001")
            try await store.write { try $0.insertUser(original) }
            let changes = Self.userChanges
            try await race(store, changes.count) { index, tx in
                guard var user = try Self.findUser(way: index % 3, tx) else { throw StoreError.notFound }
                Thread.sleep(forTimeInterval: Self.pause)
                changes[index](&user)
                try tx.updateUser(user)
            }
            var expected = original
            for change in changes { change(&expected) }
            let stored = try await store.read { try $0.user(localId: "u") }
            #expect(stored == expected)
        }
    }

    static let identityChanges: [@Sendable (inout ProviderIdentity) -> Void] = [
        { $0.email = "id@x.io" },
        { $0.displayName = "Ada" },
        { $0.photoUrl = "https://example.com/a.png" },
        { $0.screenName = "ada" },
        { $0.rawUserInfo = #"{"sub":"s"}"# },
        { $0.sealedSecrets = [1, 2, 3] },
    ]

    @Test("each of 6 concurrent transactions changes one field of one identity; all 6 changes are kept",
          arguments: StoreFactory.all)
    func identityFields(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let original = Fixture.identity("apple.com", "s", localId: "u")
            try await store.write { tx in
                try tx.insertUser(Fixture.user("u"))
                try tx.insertIdentity(original)
            }
            let changes = Self.identityChanges
            try await race(store, changes.count) { index, tx in
                let found = index.isMultiple(of: 2)
                    ? try tx.identity(providerId: "apple.com", federatedId: "s") : try tx.identities(localId: "u").first
                guard var identity = found else { throw StoreError.notFound }
                Thread.sleep(forTimeInterval: Self.pause)
                changes[index](&identity)
                try tx.updateIdentity(identity)
            }
            var expected = original
            for change in changes { change(&expected) }
            let stored = try await store.read { try $0.identity(providerId: "apple.com", federatedId: "s") }
            #expect(stored == expected)
        }
    }

    @Test("8 concurrent transactions each add a name to a setting that does not exist yet; all 8 are kept",
          arguments: StoreFactory.all)
    func settingMerge(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await race(store, 8) { index, tx in
                let names = try tx.setting("names")?.split(separator: ",").map(String.init) ?? []
                Thread.sleep(forTimeInterval: Self.pause)
                try tx.setSetting("names", value: (names + ["n\(index)"]).joined(separator: ","))
            }
            let stored = try await store.read { try $0.setting("names") }
            #expect(Set(stored?.split(separator: ",").map(String.init) ?? []) == Set((0..<8).map { "n\($0)" }))
        }
    }

    @Test("of 6 concurrent transactions each adding a signing key when there is none, exactly one adds it",
          arguments: StoreFactory.all)
    func firstSigningKey(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await race(store, 6) { index, tx in
                let none = try tx.signingKeys().isEmpty
                Thread.sleep(forTimeInterval: Self.pause)
                if none { try tx.insertSigningKey(Fixture.signingKey("kid-\(index)", createdAt: 1)) }
            }
            let keys = try await store.read { try $0.signingKeys() }
            #expect(keys.count == 1)
        }
    }
}
