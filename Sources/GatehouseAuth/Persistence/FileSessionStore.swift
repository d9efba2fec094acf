import Foundation

/// One file per session in `directory` (created 0700), each written 0600 through a temporary file and a rename
/// (`DurableFile`), so a crash never leaves half a session and no other user can read a refresh token.
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
        try DurableFile.save(data, to: file(for: key).path)
    }

    public func remove(key: String) throws {
        try DurableFile.remove(file(for: key).path)
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
