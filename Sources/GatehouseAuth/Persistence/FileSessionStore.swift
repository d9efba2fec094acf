import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One file per session in `directory` (created 0700), each written 0600 through a temporary file and a rename,
/// so a crash never leaves half a session and no other user can read a refresh token.
public struct FileSessionStore: AuthSessionStore {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public func load(key: String) throws -> Data? {
        let path = file(for: key).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    public func save(_ data: Data, key: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let target = file(for: key).path
        let temporary = target + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
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
    }

    public func remove(key: String) throws {
        let path = file(for: key).path
        guard unlink(path) == 0 || errno == ENOENT else { throw FileStoreError(operation: "remove", path: path, code: errno) }
    }

    /// `<key>.json` with every character but letters, digits, `-`, `_` and `.` replaced by `_`.
    func file(for key: String) -> URL {
        let safe = String(key.unicodeScalars.map { scalar -> Character in
            ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || "-_.".unicodeScalars.contains(scalar) ? Character(scalar) : "_"
        })
        return directory.appendingPathComponent(safe + ".json")
    }
}

struct FileStoreError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let code: Int32

    var description: String { "cannot \(operation) \(path): \(String(cString: strerror(code)))" }
}
