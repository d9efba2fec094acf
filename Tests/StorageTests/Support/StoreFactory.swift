import Foundation
import Storage
import StorageSQLite
import Testing

/// A backend the conformance suite runs against: opens a fresh, empty store and knows how to clean up.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let name: String
    let open: @Sendable () throws -> OpenedStore

    var testDescription: String { name }

    /// Every backend the conformance suite runs against.
    ///
    /// PostgreSQL joins this list when its backend module exists: a factory built from the connection URL in
    /// the environment variable `GATEHOUSE_TEST_POSTGRES_URL`, appended only when that variable is set, each
    /// `open()` creating a fresh schema so that tests stay independent.
    static let all: [StoreFactory] = [.memory, .sqlite]

    static let memory = StoreFactory(name: "memory") {
        OpenedStore(store: InMemoryUserStore(), cleanup: {})
    }

    static let sqlite = StoreFactory(name: "sqlite") {
        let directory = try TemporaryDirectory()
        return OpenedStore(store: try SQLiteUserStore(path: directory.file("store.sqlite")), cleanup: directory.remove)
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

/// A directory of its own under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("gatehouse-storage-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
