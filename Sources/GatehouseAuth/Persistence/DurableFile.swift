import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files written so that a crash leaves either the old content or the new, never half of it: through a temporary
/// file (created 0600) that is synced and renamed over the target, then the directory is synced so the rename
/// itself survives a power cut. Temporaries a crash left behind are removed by the next write.
enum DurableFile {
    /// A temporary older than this is a crash's leftover, not a write in progress (which takes milliseconds).
    static let leftoverAge: TimeInterval = 60

    static func save(_ data: Data, to target: String) throws {
        removeLeftovers(of: target)
        let temporary = target + temporaryMarker + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw FileStoreError(operation: "create", path: temporary, code: errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0, rename(temporary, target) == 0 else {
            let code = failure != 0 ? failure : errno
            unlink(temporary)
            throw FileStoreError(operation: "write", path: target, code: code)
        }
        syncDirectory(of: target)
    }

    /// Removes `target` (a missing file is not an error) and syncs its directory.
    static func remove(_ target: String) throws {
        guard unlink(target) == 0 || errno == ENOENT else { throw FileStoreError(operation: "remove", path: target, code: errno) }
        syncDirectory(of: target)
    }

    private static let temporaryMarker = ".tmp-"

    /// Best effort: the write itself has succeeded; a directory that cannot be synced is not a reason to fail it.
    private static func syncDirectory(of target: String) {
        let directory = open(URL(fileURLWithPath: target).deletingLastPathComponent().path, O_RDONLY)
        guard directory >= 0 else { return }
        _ = fsync(directory)
        close(directory)
    }

    private static func removeLeftovers(of target: String) {
        let file = URL(fileURLWithPath: target)
        let directory = file.deletingLastPathComponent()
        let prefix = file.lastPathComponent + temporaryMarker
        let cutoff = Date().addingTimeInterval(-leftoverAge)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(prefix) {
            let path = directory.appendingPathComponent(name).path
            let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            if let modified, modified < cutoff { unlink(path) }
        }
    }
}

struct FileStoreError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let code: Int32

    var description: String { "cannot \(operation) \(path): \(String(cString: strerror(code)))" }
}
