import AuthCore
import Storage
import Testing

@Suite("UserStore conformance: concurrent transactions")
struct ConcurrencyConformanceTests {
    /// Runs `count` operations at once and returns each one's outcome.
    private func race<T: Sendable>(
        _ count: Int, _ operation: @escaping @Sendable (Int) async throws -> T
    ) async -> [Result<T, StoreError>] {
        await withTaskGroup(of: Result<T, StoreError>.self) { group in
            for index in 0..<count {
                group.addTask {
                    do { return .success(try await operation(index)) } catch let error as StoreError {
                        return .failure(error)
                    } catch {
                        return .failure(.unavailable("unexpected \(error)"))
                    }
                }
            }
            var outcomes: [Result<T, StoreError>] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    @Test("of 50 users racing for one email, exactly one gets it", arguments: StoreFactory.all)
    func emailRace(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let outcomes = await race(50) { index in
                try await store.write { try $0.insertUser(Fixture.user("user-\(index)", email: "same@x.io")) }
            }
            let failures = outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
            #expect(outcomes.count - failures.count == 1)
            #expect(failures == Array(repeating: .uniqueViolation(.email), count: 49))
            let count = try await store.read { try $0.userCount() }
            #expect(count == 1)
        }
    }

    @Test("of 50 users racing to link one provider account, exactly one gets it", arguments: StoreFactory.all)
    func identityRace(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            try await store.write { tx in
                for index in 0..<50 { try tx.insertUser(Fixture.user("user-\(index)")) }
            }
            let outcomes = await race(50) { index in
                try await store.write { tx in
                    try tx.insertIdentity(Fixture.identity("apple.com", "one-sub", localId: "user-\(index)"))
                }
            }
            let failures = outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
            #expect(outcomes.count - failures.count == 1)
            #expect(failures == Array(repeating: .uniqueViolation(.identity), count: 49))
            let owner = try await store.read { try $0.identity(providerId: "apple.com", federatedId: "one-sub") }
            #expect(owner != nil)
        }
    }

    @Test("of two transactions taking the same one-time token, exactly one gets it", arguments: StoreFactory.all)
    func takeRace(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let tokens = (0..<20).map { Fixture.oneTimeToken("pending-\($0)", kind: "pending") }
            try await store.write { tx in
                for token in tokens { try tx.insertOneTimeToken(token) }
            }
            for token in tokens {
                let outcomes = await race(2) { _ in
                    try await store.write { try $0.takeOneTimeToken(kind: "pending", hash: token.tokenHash) }
                }
                let results = try outcomes.map { try $0.get() }
                #expect(results.compactMap { $0 } == [token])
            }
        }
    }

    @Test("concurrent reads and writes all complete and all writes land", arguments: StoreFactory.all)
    func mixedLoad(factory: StoreFactory) async throws {
        try await withStore(factory) { store in
            let outcomes = await race(60) { index in
                if index.isMultiple(of: 2) {
                    try await store.write { try $0.insertUser(Fixture.user("user-\(index)")) }
                    return -1
                }
                return try await store.read { try $0.userCount() }
            }
            #expect(outcomes.allSatisfy { (try? $0.get()) != nil })
            #expect(outcomes.compactMap { try? $0.get() }.allSatisfy { $0 <= 30 })
            let count = try await store.read { try $0.userCount() }
            #expect(count == 30)
        }
    }
}
