import Foundation
import Storage
import StoragePostgres
import StorageSQLite
import TestSupport
import Testing

/// A backend the conformance suite runs against: opens a fresh, empty store and knows how to clean up.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let name: String
    let open: @Sendable () throws -> OpenedStore

    var testDescription: String { name }

    /// Every backend the conformance suite runs against: memory, SQLite, and PostgreSQL when
    /// `GATEHOUSE_TEST_POSTGRES_URL` names a server (`scripts/test.sh` starts one and sets it). With
    /// `GATEHOUSE_REQUIRE_POSTGRES=1` (CI) a missing URL is a failure of every test, never a silent skip.
    static let all: [StoreFactory] = [.memory, .sqlite] + (PostgresTestServer.factory.map { [$0] } ?? [])

    static let memory = StoreFactory(name: "memory") {
        OpenedStore(store: InMemoryUserStore(), cleanup: {})
    }

    static let sqlite = StoreFactory(name: "sqlite") {
        let directory = try TemporaryDirectory()
        return OpenedStore(store: try SQLiteUserStore(path: directory.file("store.sqlite")), cleanup: directory.remove)
    }
}

/// The PostgreSQL server of the test run. Each opened store lives in a schema of its own (created here,
/// selected through the URL's `search_path`, dropped at cleanup), so tests stay independent and parallel.
enum PostgresTestServer {
    static let environment = ProcessInfo.processInfo.environment

    static var url: String? { environment["GATEHOUSE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 } }

    /// Whether PostgreSQL tests run: a server is given, or one is required (and its absence then fails them).
    static var isConfigured: Bool { url != nil || environment["GATEHOUSE_REQUIRE_POSTGRES"] == "1" }

    static func requireURL() throws -> String {
        guard let url else {
            throw StoreError.unavailable("GATEHOUSE_REQUIRE_POSTGRES=1 but GATEHOUSE_TEST_POSTGRES_URL is not set")
        }
        return url
    }


    static var factory: StoreFactory? {
        guard let url else {
            guard environment["GATEHOUSE_REQUIRE_POSTGRES"] == "1" else { return nil }
            return StoreFactory(name: "postgres") {
                throw StoreError.unavailable("GATEHOUSE_REQUIRE_POSTGRES=1 but GATEHOUSE_TEST_POSTGRES_URL is not set")
            }
        }
        return StoreFactory(name: "postgres") {
            let opened = try openScratch(url: url)
            return OpenedStore(store: opened.store, cleanup: opened.drop)
        }
    }

    /// A new, empty schema: the URL that selects it (its connections carry the schema's name as
    /// `application_name`) and the function that drops it.
    static func scratchSchema(url: String) throws -> (url: String, drop: @Sendable () -> Void) {
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresAdministration.execute("CREATE SCHEMA \(schema)", url: url)
        let scoped = url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)&application_name=\(schema)"
        return (scoped, { try? PostgresAdministration.execute("DROP SCHEMA \(schema) CASCADE", url: url) })
    }

    /// A store in a new, empty schema (see `scratchSchema`).
    static func openScratch(url: String, options: (inout PostgresOptions) -> Void = { _ in })
        throws -> (store: PostgresUserStore, url: String, drop: @Sendable () -> Void) {
        let scratch = try scratchSchema(url: url)
        var settings = PostgresOptions(url: scratch.url, poolSize: 4)
        options(&settings)
        do {
            return (try PostgresUserStore(options: settings), scratch.url, scratch.drop)
        } catch {
            scratch.drop()
            throw error
        }
    }
}

struct OpenedStore: Sendable {
    let store: any UserStore
    let cleanup: @Sendable () -> Void
}

/// Opens a fresh store from `factory`, runs `body`, then closes the store and removes its files.
func withStore(_ factory: StoreFactory, _ body: (any UserStore) async throws -> Void) async throws {
    let opened = try factory.open()
    do {
        try await body(opened.store)
    } catch {
        try? await opened.store.close()
        opened.cleanup()
        throw error
    }
    try await opened.store.close()
    opened.cleanup()
}
