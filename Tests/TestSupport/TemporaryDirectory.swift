import Foundation

/// A directory of a test's own under the system temporary directory, removed with everything in it by
/// `remove()`: a SQLite database's `-wal` and `-shm` files and a written key go with it, so a run leaves nothing
/// behind in `/tmp`. One copy for every test target.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("gatehouse-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
