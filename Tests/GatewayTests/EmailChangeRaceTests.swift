import AuthCore
import Storage
import Testing
@testable import Gateway
import WireFormats

/// A store whose transactions do not see who holds `hiddenEmail`: as if another instance took the address
/// after the snapshot was read. The unique constraint still refuses it when the change is written.
final class StaleEmailLookupStore: UserStore {
    let inner: any UserStore
    let hiddenEmail: String

    init(_ inner: any UserStore, hiding email: String) {
        self.inner = inner
        hiddenEmail = email
    }

    final class Transaction: ForwardingTransaction {
        let hiddenEmail: String

        init(_ inner: any StoreTransaction, hiding email: String) {
            hiddenEmail = email
            super.init(inner)
        }

        override func user(email: String) throws -> UserRecord? {
            email == hiddenEmail ? nil : try inner.user(email: email)
        }

        override func identities(email: String) throws -> [ProviderIdentity] {
            email == hiddenEmail ? [] : try inner.identities(email: email)
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await inner.read { [hiddenEmail] tx in try body(Transaction(tx, hiding: hiddenEmail)) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await inner.write { [hiddenEmail] tx in try body(Transaction(tx, hiding: hiddenEmail)) }
    }

    func close() async throws { try await inner.close() }
}

@Suite("An email change that loses the race for the address")
struct EmailChangeRaceTests {
    @Test("by the user or by an admin, is EMAIL_EXISTS (never a 500), and changes nothing")
    func lostRace() async throws {
        let store = StaleEmailLookupStore(InMemoryUserStore(), hiding: "ada@example.com")
        try await store.write { tx in try tx.insertSigningKey(SharedSigningKey.record) }
        let gw = try await TestGateway.withEmail(store: store)
        #expect(await gw.signUp("ada@example.com", "secret1").status == 200)
        let bob = await gw.signUp("bob@example.com", "secret2")
        let idToken = try #require(bob["idToken"]?.stringValue)
        let byUser = await gw.update(["idToken": .string(idToken), "email": "ada@example.com"])
        #expect(byUser.status == 400)
        #expect(byUser.error == "EMAIL_EXISTS")
        let byAdmin = await gw.admin("update", ["localId": bob["localId"] ?? nil, "email": "ada@example.com"])
        #expect(byAdmin.status == 400)
        #expect(byAdmin.error == "EMAIL_EXISTS")
        // Bob keeps his address and his session.
        #expect(await gw.lookup(idToken)["users"]?.arrayValue?.first?["email"]?.stringValue == "bob@example.com")
    }
}
