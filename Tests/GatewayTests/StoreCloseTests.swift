import AuthCore
import Storage
import Testing
@testable import Gateway

/// A store whose close fails the way SQLite's does when the WAL cannot be folded into the database file.
final class FailingCloseStore: UserStore {
    let inner = InMemoryUserStore()

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await inner.write(body)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await inner.read(body)
    }

    func close() async throws {
        try await inner.close()
        throw StoreError.unavailable("SQLite wal_checkpoint(TRUNCATE) failed (5): database is locked")
    }
}

@Suite("Closing the store on shutdown")
struct StoreCloseTests {
    @Test("a store that does not close cleanly is logged as an error, with the reason")
    func failedCloseIsLogged() async throws {
        let gw = try await TestGateway.make(store: FailingCloseStore())
        await GatewayApp.closeStore(gw.app.services)
        let line = try #require(gw.logs.contents.first { $0.contains("did not close cleanly") })
        #expect(line.contains("\"level\":\"error\""))
        #expect(line.contains("wal_checkpoint(TRUNCATE) failed"))
    }

    @Test("a clean close logs nothing")
    func cleanClose() async throws {
        let gw = try await TestGateway.make()
        let before = gw.logs.contents.count
        await GatewayApp.closeStore(gw.app.services)
        #expect(gw.logs.contents.count == before)
    }
}
