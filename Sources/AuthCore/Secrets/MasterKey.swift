import Crypto
import Foundation
import WireFormats

/// Finds the master key that seals secrets at rest.
///
/// Order: the `GATEHOUSE_MASTER_KEY` environment value (64 hex characters, or base64 of 32 bytes), else the
/// file `master.key` in the data directory, created with mode 0600 on first start. Losing the key makes the
/// sealed signing keys and provider secrets unreadable, so the README tells operators to back it up with
/// the database.
public enum MasterKey {
    public enum LoadError: Error, CustomStringConvertible {
        case malformedEnvironmentValue
        case malformedFile(String)
        case unsafePermissions(String)
        case io(String)

        public var description: String {
            switch self {
            case .malformedEnvironmentValue:
                return "GATEHOUSE_MASTER_KEY must be 64 hex characters or the base64 of 32 bytes"
            case .malformedFile(let path): return "master key file \(path) does not hold 32 bytes"
            case .unsafePermissions(let path): return "master key file \(path) is readable by group or others (chmod 600)"
            case .io(let message): return "master key: \(message)"
            }
        }
    }

    /// Parses a key given as 64 hex characters or base64 of 32 bytes.
    public static func parse(_ text: String) -> SymmetricKey? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count == 64, let bytes = Hex.decode(trimmed) { return try? SymmetricKey(bytes: bytes) }
        if let bytes = Base64.decode(trimmed), bytes.count == 32 { return try? SymmetricKey(bytes: bytes) }
        return nil
    }

    /// Reads a key file that must exist and be private to its owner (mode 0600 or stricter).
    public static func read(file path: String) throws -> SymmetricKey {
        let manager = FileManager.default
        guard manager.fileExists(atPath: path) else { throw LoadError.io("key file \(path) does not exist") }
        let attributes = try? manager.attributesOfItem(atPath: path)
        if let mode = (attributes?[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0 {
            throw LoadError.unsafePermissions(path)
        }
        guard let data = manager.contents(atPath: path), let key = parse(String(decoding: data, as: UTF8.self)) else {
            throw LoadError.malformedFile(path)
        }
        return key
    }

    /// Returns the key and where it came from (for the start-up log; never the key itself).
    public static func load(environmentValue: String?, dataDirectory: String) throws -> (SymmetricKey, source: String) {
        if let environmentValue, !environmentValue.isEmpty {
            guard let key = parse(environmentValue) else { throw LoadError.malformedEnvironmentValue }
            return (key, "environment")
        }
        let path = (dataDirectory as NSString).appendingPathComponent("master.key")
        let manager = FileManager.default
        if manager.fileExists(atPath: path) {
            return (try read(file: path), "file")
        }
        let key = SymmetricKey.generate()
        let text = Hex.encode(key.bytes) + "\n"
        // Create with 0600 atomically: the key must never exist on disk with wider permissions.
        guard manager.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw LoadError.io("cannot create \(path)")
        }
        return (key, "file (created)")
    }
}
