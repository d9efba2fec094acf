import AuthCore
import Glibc
import Storage

extension SQLiteUserStore {
    /// Writes a consistent copy of the database to `destination` while the store keeps serving reads and
    /// writes, using SQLite's online backup API from a reader's snapshot.
    ///
    /// The copy is written next to `destination` and linked into place only when complete, so the path
    /// never holds half a backup. `destination` must not exist yet (replacing a live database file under
    /// its `-wal` file could corrupt it); its directory must exist.
    public func backup(to destination: String) async throws {
        try gate.enter()
        defer { gate.leave() }
        guard access(destination, F_OK) != 0 else {
            throw StoreError.unavailable("backup destination \(destination) already exists")
        }
        let partial = destination + ".partial"
        try await readerPool.run {
            unlink(partial)
            do {
                let copy = try Connection(path: partial, mode: .readWrite)
                defer { copy.close() }
                try self.readers.withConnection { source in try source.backup(into: copy) }
            } catch {
                unlink(partial)
                throw error
            }
            let linked = link(partial, destination)
            let reason = errno
            unlink(partial)
            guard linked == 0 else {
                throw StoreError.unavailable("cannot move backup into \(destination): \(String(cString: strerror(reason)))")
            }
        }
    }
}
