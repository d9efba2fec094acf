import AuthCore
import Dispatch
import Foundation
import Storage
@testable import StoragePostgres
import Synchronization
import Testing

/// Behaviour only the PostgreSQL backend has: several instances on one database, connections that drop,
/// timeouts, deadlocks. Runs when the test server is configured (see `PostgresTestServer`).
@Suite("PostgreSQL backend against a server", .enabled(if: PostgresTestServer.isConfigured))
struct PostgresServerTests {
    /// Cuts every connection of stores opened with `url` (their `application_name`), as a server restart does.
    private func cutConnections(_ url: String) throws {
        let name = try #require(url.components(separatedBy: "application_name=").last)
        try PostgresAdministration.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)'",
            url: try PostgresTestServer.requireURL())
    }

    @Test("a transaction that meets cut connections runs again on a new one, and nothing is lost")
    func reconnects() async throws {
        let scratch = try PostgresTestServer.openScratch(url: try PostgresTestServer.requireURL())
        defer { scratch.drop() }
        try await scratch.store.write { try $0.insertUser(Fixture.user("before")) }
        let opened = scratch.store.connectionsOpened
        try cutConnections(scratch.url)
        try await scratch.store.write { try $0.insertUser(Fixture.user("after")) }
        #expect(try await scratch.store.read { try $0.userCount() } == 2)
        #expect(scratch.store.connectionsOpened > opened)
        #expect(scratch.store.retries.afterLostConnection >= 1)
        try await scratch.store.close()
    }

    @Test("with no retry budget left, a cut connection is reported as unavailable")
    func givesUp() async throws {
        let scratch = try PostgresTestServer.openScratch(url: try PostgresTestServer.requireURL()) {
            $0.retryBudgetMilliseconds = 0
        }
        defer { scratch.drop() }
        try await scratch.store.write { try $0.insertUser(Fixture.user("before")) }
        try cutConnections(scratch.url)
        await #expect {
            try await scratch.store.write { try $0.insertUser(Fixture.user("after")) }
        } throws: { error in
            guard case StoreError.unavailable(let message) = error else { return false }
            return message.contains("unreachable")
        }
        try await scratch.store.close()
    }

    @Test("an unreachable server is a start-up error that names the URL without its password")
    func unreachable() throws {
        let url = "postgresql://gate:topsecret@%2Fnonexistent%2Fsocket:5432/auth"
        #expect {
            _ = try PostgresUserStore(options: PostgresOptions(url: url))
        } throws: { error in
            guard case StoreError.unavailable(let message) = error else { return false }
            return message.contains("postgresql://gate:***@") && !message.contains("topsecret")
        }
    }

    @Test("instances starting at the same moment apply each migration exactly once")
    func concurrentMigrations() async throws {
        let base = try PostgresTestServer.requireURL()
        let scratch = try PostgresTestServer.scratchSchema(url: base)
        defer { scratch.drop() }
        let stores = try await withThrowingTaskGroup(of: PostgresUserStore.self) { group in
            for _ in 0..<4 {
                group.addTask { try PostgresUserStore(options: PostgresOptions(url: scratch.url, poolSize: 1)) }
            }
            var all: [PostgresUserStore] = []
            for try await store in group { all.append(store) }
            return all
        }
        try await stores[0].write { try $0.insertUser(Fixture.user("a")) }
        #expect(try await stores[3].read { try $0.userCount() } == 1)
        let versions = try await stores[1].schemaVersions()
        #expect(versions == Array(1...PostgresMigrations.latestVersion))
        for store in stores { try await store.close() }
    }

    @Test("upgrading a version 4 database keys its refresh tokens by user and keeps every one")
    func refreshTokensByUserMigration() async throws {
        let scratch = try PostgresTestServer.scratchSchema(url: try PostgresTestServer.requireURL())
        defer { scratch.drop() }
        let options = PostgresOptions(url: scratch.url)
        let connection = try PGConnection(parameters: options.connectionParameters)
        try connection.executeScript(options.sessionSetup)
        try PostgresMigrator.migrate(connection, migrations: Array(PostgresMigrations.all.prefix(4)))
        let tokens = ["r1", "r2"].map { Fixture.refreshToken($0, localId: "alice") }
        let version4 = PostgresTransaction(connection: connection, kind: .write)
        try version4.insertUser(Fixture.completeUser("alice"))
        for token in tokens { try version4.insertRefreshToken(token) }
        try version4.commit()
        connection.close()

        let store = try PostgresUserStore(options: PostgresOptions(url: scratch.url, poolSize: 1))
        let kept = try await store.read { tx in
            try ["r1", "r2"].map { try tx.refreshToken(localId: "alice", hash: Fixture.hash($0)) }
        }
        #expect(kept == tokens)
        let indexes = try await store.read { tx in
            try (tx as! PostgresTransaction).run("""
                SELECT indexname, indexdef FROM pg_indexes
                WHERE schemaname = current_schema() AND tablename = 'refresh_tokens' ORDER BY indexname
                """).rows { row throws(StoreError) in [try row.text(0), try row.text(1)] }
        }
        #expect(indexes.map { $0[0] } == ["refresh_tokens_pkey"])
        #expect(indexes.first?[1].hasSuffix("(local_id, token_hash)") == true)
        #expect(try await store.schemaVersions() == Array(1...PostgresMigrations.latestVersion))
        // The cascade from users still reaches the tokens through the key's first column.
        #expect(try await store.write { try $0.deleteUser(localId: "alice") })
        #expect(try await store.read { try $0.refreshToken(localId: "alice", hash: Fixture.hash("r1")) } == nil)
        try await store.close()
    }

    @Test("a statement that waits longer than the statement timeout fails as unavailable")
    func statementTimeout() async throws {
        let scratch = try PostgresTestServer.openScratch(url: try PostgresTestServer.requireURL()) {
            $0.statementTimeoutMilliseconds = 200
        }
        defer { scratch.drop() }
        let store = scratch.store
        try await store.write { try $0.insertUser(Fixture.user("u")) }
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Task {
            try await store.write { tx in
                try tx.updateUser(Fixture.user("u", email: "holder@x.io"))
                locked.signal()
                _ = release.wait(timeout: .now() + 30)
            }
        }
        await waitOffThread(locked)
        await #expect {
            try await store.write { tx in try tx.updateUser(Fixture.user("u", email: "waiter@x.io")) }
        } throws: { error in
            guard case StoreError.unavailable(let message) = error else { return false }
            return message.contains("statement timeout")
        }
        release.signal()
        try await holder.value
        #expect(try await store.read { try $0.user(localId: "u")?.email } == "holder@x.io")
        try await store.close()
    }

    @Test("of two transactions that deadlock, the one the server aborts runs again and both succeed")
    func deadlockRetried() async throws {
        let scratch = try PostgresTestServer.openScratch(url: try PostgresTestServer.requireURL())
        defer { scratch.drop() }
        let store = scratch.store
        try await store.write { tx in
            try tx.insertUser(Fixture.user("a"))
            try tx.insertUser(Fixture.user("b"))
        }
        let runs = Counter()
        let rowLocked = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        /// Locks `first`, waits (first run only) until the other transaction holds its row, then takes `second`.
        let crossUpdate: @Sendable (Int, String, String) async throws -> Void = { index, first, second in
            try await store.write { tx in
                let run = runs.next()
                try tx.updateUser(Fixture.user(first, email: "\(first)-by-\(index)@x.io"))
                if run <= 2 {
                    rowLocked[index].signal()
                    _ = rowLocked[1 - index].wait(timeout: .now() + 30)
                }
                try tx.updateUser(Fixture.user(second, email: "\(second)-by-\(index)@x.io"))
            }
        }
        let one = Task { try await crossUpdate(0, "a", "b") }
        let two = Task { try await crossUpdate(1, "b", "a") }
        try await one.value
        try await two.value
        // The victim ran again (under heavy load the server may abort an attempt more than once).
        #expect(runs.value >= 3)
        #expect(store.retries.afterConflict >= 1)
        let emails = try await store.read { tx in [try tx.user(localId: "a")?.email, try tx.user(localId: "b")?.email] }
        #expect(emails == ["a-by-0@x.io", "b-by-0@x.io"] || emails == ["a-by-1@x.io", "b-by-1@x.io"])
        try await store.close()
    }

    @Test("two instances claiming one outbox get every due item exactly once between them")
    func outboxAcrossInstances() async throws {
        let scratch = try PostgresTestServer.openScratch(url: try PostgresTestServer.requireURL())
        defer { scratch.drop() }
        let other = try PostgresUserStore(options: PostgresOptions(url: scratch.url, poolSize: 2))
        let ids = (0..<60).map { "job-\($0)" }
        try await scratch.store.write { tx in
            for id in ids { try tx.insertOutboxItem(Fixture.outboxItem(id, nextAttemptAt: 0)) }
        }
        let claims = try await withThrowingTaskGroup(of: [String].self) { group in
            for store in [scratch.store, other, scratch.store, other] as [any UserStore] {
                group.addTask {
                    var mine: [String] = []
                    while true {
                        let batch = try await store.write { tx in
                            let due = try tx.dueOutboxItems(kind: "mail", dueBy: 10, limit: 2)
                            for var item in due {
                                item.nextAttemptAt = 60_000
                                try tx.updateOutboxItem(item)
                            }
                            return due.map(\.id)
                        }
                        if batch.isEmpty { return mine }
                        mine += batch
                    }
                }
            }
            var all: [String] = []
            for try await claimed in group { all += claimed }
            return all
        }
        #expect(claims.count == ids.count)
        #expect(Set(claims) == Set(ids))
        try await other.close()
        try await scratch.store.close()
    }

    @Test("text PostgreSQL cannot hold (a NUL character) is refused whole, never cut short")
    func nulCharacter() async throws {
        let scratch = try PostgresTestServer.openScratch(url: try PostgresTestServer.requireURL())
        defer { scratch.drop() }
        var named = Fixture.user("nul")
        named.displayName = "before\u{0}after"
        let user = named
        do {
            try await scratch.store.write { try $0.insertUser(user) }
            Issue.record("a NUL character was stored")
        } catch StoreError.invalidValue {
            // The value is refused as the caller's input (a 400), not as an outage (a 503 clients retry).
        }
        #expect(try await scratch.store.read { try $0.user(localId: "nul") } == nil)
        try await scratch.store.close()
    }

    @Test("a value too long for an index is refused as the caller's input, not as an outage")
    func indexRowTooLarge() async throws {
        let scratch = try PostgresTestServer.openScratch(url: try PostgresTestServer.requireURL())
        defer { scratch.drop() }
        let user = Fixture.user(String(repeating: "L", count: 300_000))
        do {
            try await scratch.store.write { try $0.insertUser(user) }
            Issue.record("a 300 KB indexed value was stored")
        } catch StoreError.invalidValue {
        }
        try await scratch.store.close()
    }
}

/// A thread-safe counter of body runs.
final class Counter: Sendable {
    private let count = Mutex(0)

    /// Counts one more and returns the new total.
    func next() -> Int { count.withLock { $0 += 1; return $0 } }

    var value: Int { count.withLock { $0 } }
}
