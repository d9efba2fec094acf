import AuthCore
import Dispatch
import Storage
import Testing

@Suite("UserStore conformance: transactions")
struct TransactionConformanceTests {
    private struct Abort: Error {}

    @Test("a body that throws leaves nothing behind", arguments: StoreFactory.all)
    func throwingBodyRollsBack(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    try tx.insertUser(Fixture.user("a", email: "a@x.io"))
                    try tx.setSetting("k", value: "v")
                    throw Abort()
                }
            }
            let left = try await store.read { tx in (try tx.userCount(), try tx.setting("k")) }
            #expect(left.0 == 0)
            #expect(left.1 == nil)
        }
    }

    @Test("a unique violation rolls back the transaction's earlier writes",
          arguments: StoreFactory.all, UniqueConstraint.allCases)
    func violationRollsBack(factory: StoreFactory, constraint: UniqueConstraint) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                try tx.insertUser(Fixture.user("owner", email: "e@x.io", phone: "+1"))
                try tx.insertUser(Fixture.user("other"))
                try tx.insertIdentity(Fixture.identity("apple.com", "sub", localId: "owner"))
                try tx.insertRefreshToken(Fixture.refreshToken("rt", localId: "owner"))
                try tx.insertSigningKey(Fixture.signingKey("kid", createdAt: 1))
                try tx.insertOneTimeToken(Fixture.oneTimeToken("ott"))
                try tx.insertOutboxItem(Fixture.outboxItem("job"))
            }
            await #expect(throws: StoreError.uniqueViolation(constraint)) {
                try await store.write { tx in
                    try tx.insertUser(Fixture.user("marker"))
                    try tx.setSetting("marker", value: "1")
                    try tx.insertOneTimeToken(Fixture.oneTimeToken("marker"))
                    try tx.insertOutboxItem(Fixture.outboxItem("marker"))
                    _ = try tx.deleteUser(localId: "other")
                    try Self.violate(constraint, in: tx)
                }
            }
            let left = try await store.read { tx in
                (try tx.user(localId: "marker"), try tx.setting("marker"),
                 try tx.oneTimeToken(kind: "oob", hash: Fixture.hash("marker")), try tx.user(localId: "other"),
                 try tx.outboxItems(kind: "mail").map(\.id))
            }
            #expect(left.0 == nil)
            #expect(left.1 == nil)
            #expect(left.2 == nil)
            #expect(left.3 != nil)
            #expect(left.4 == ["job"])
        }
    }

    private static func violate(_ constraint: UniqueConstraint, in tx: any StoreTransaction) throws {
        switch constraint {
        case .localId: try tx.insertUser(Fixture.user("owner"))
        case .email: try tx.insertUser(Fixture.user("x", email: "e@x.io"))
        case .phoneNumber: try tx.insertUser(Fixture.user("x", phone: "+1"))
        case .identity: try tx.insertIdentity(Fixture.identity("apple.com", "sub", localId: "marker"))
        case .userProvider: try tx.insertIdentity(Fixture.identity("apple.com", "sub-2", localId: "owner"))
        case .refreshToken: try tx.insertRefreshToken(Fixture.refreshToken("rt", localId: "owner"))
        case .signingKey: try tx.insertSigningKey(Fixture.signingKey("kid", createdAt: 2))
        case .oneTimeToken: try tx.insertOneTimeToken(Fixture.oneTimeToken("ott"))
        case .outboxItem: try tx.insertOutboxItem(Fixture.outboxItem("job", kind: "apple.revoke"))
        }
    }

    @Test("a caught violation has no effect and the transaction carries on", arguments: StoreFactory.all)
    func caughtViolationKeepsTransaction(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertUser(Fixture.user("a", email: "a@x.io")) }
            let outcome = try await store.write { tx -> StoreError? in
                try tx.insertUser(Fixture.user("b"))
                var caught: StoreError?
                do {
                    try tx.insertUser(Fixture.user("c", email: "a@x.io"))
                } catch let error as StoreError {
                    caught = error
                }
                try tx.insertUser(Fixture.user("d"))
                return caught
            }
            #expect(outcome == .uniqueViolation(.email))
            let ids = try await store.read { try $0.users(afterLocalId: nil, limit: 10).map(\.localId) }
            #expect(ids == ["a", "b", "d"])
        }
    }

    @Test("writes inside a read transaction are refused", arguments: StoreFactory.all)
    func readIsReadOnly(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertOneTimeToken(Fixture.oneTimeToken("t")) }
            await #expect(throws: StoreError.readOnly) {
                try await store.read { try $0.insertUser(Fixture.user("a")) }
            }
            await #expect(throws: StoreError.readOnly) {
                try await store.read { try $0.takeOneTimeToken(kind: "oob", hash: Fixture.hash("t")) }
            }
            await #expect(throws: StoreError.readOnly) {
                try await store.read { try $0.setSetting("k", value: "v") }
            }
            let left = try await store.read { tx in
                (try tx.userCount(), try tx.oneTimeToken(kind: "oob", hash: Fixture.hash("t")) != nil)
            }
            #expect(left.0 == 0)
            #expect(left.1)
        }
    }

    @Test("a read transaction sees one snapshot while a write commits", arguments: StoreFactory.all)
    func readSnapshot(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { try $0.insertUser(Fixture.user("a")) }
            let readStarted = DispatchSemaphore(value: 0)
            let written = DispatchSemaphore(value: 0)
            let reader = Task {
                try await store.read { tx in
                    let before = try tx.userCount()
                    readStarted.signal()
                    _ = written.wait(timeout: .now() + 30)
                    return [before, try tx.userCount()]
                }
            }
            await waitOffThread(readStarted)
            try await store.write { try $0.insertUser(Fixture.user("b")) }
            written.signal()
            #expect(try await reader.value == [1, 1])
            #expect(try await store.read { try $0.userCount() } == 2)
        }
    }

    @Test("a closed store refuses work, and closing twice is harmless", arguments: StoreFactory.all)
    func closed(factory: StoreFactory) async throws {
        let opened = try factory.open()
        defer { opened.cleanup() }
        let store = opened.store
        try await store.write { try $0.insertUser(Fixture.user("a")) }
        try await store.close()
        try await store.close()
        await #expect(throws: StoreError.unavailable("the store is closed")) {
            try await store.read { try $0.userCount() }
        }
        await #expect(throws: StoreError.unavailable("the store is closed")) {
            try await store.write { try $0.insertUser(Fixture.user("b")) }
        }
    }
}

/// Waits for `semaphore` on a Dispatch thread, so the cooperative pool is never blocked.
func waitOffThread(_ semaphore: DispatchSemaphore) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            _ = semaphore.wait(timeout: .now() + 30)
            continuation.resume()
        }
    }
}
