import AuthCore
import Crypto
import Foundation
import Storage
import WireFormats

/// `gateway users export FILE`: every user in `firebase auth:export`'s JSON format, so `firebase auth:import` and
/// `gateway users import` both read it.
///
/// That format has one hash configuration per file (given to `auth:import` as flags). The gateway may hold users
/// with different ones (its own scrypt, Firebase scrypt, imported bcrypt …), so the file carries an extension
/// that `auth:import` ignores (it reads only `users`):
/// - `gatehouseHash`: the configuration of every password user in `users` (batchCreate's field names);
/// - `gatehouseHashGroups`: the other configurations, and `gatehouseUsers`: their users, each with
///   `gatehouseHashGroup`, the index of its configuration.
/// Members come in that order (`gatehouseHash`, `users`, `gatehouseHashGroups`, `gatehouseUsers`) so a reader can
/// stream them. The file is written beside its final name and renamed when complete.
struct UserExportRun {
    struct Summary: Sendable {
        var users = 0
        var groupedUsers = 0
        var primaryHash: JSONObject?
        var groups: [JSONObject] = []
    }

    let store: any UserStore
    var pageSize = 1000

    func run(to path: String, progress: ProgressDisplay?) async throws -> Summary {
        let partial = path + ".partial"
        let groupsPath = path + ".groups.partial"
        var completed = false
        defer {
            try? FileManager.default.removeItem(atPath: groupsPath)
            if !completed { try? FileManager.default.removeItem(atPath: partial) }
        }
        let output = try BufferedFile(path: partial)
        let grouped = try BufferedFile(path: groupsPath)
        var summary = Summary()
        let primaryKey = try await mostCommonHashKey()
        let primary = primaryKey.flatMap(Self.hashOptions(key:))
        // Stored configuration (algorithm and parameter text) → its group; nil for the configuration of `users`.
        var groupOf: [String: Int?] = [:]
        if let primaryKey, let primary {
            groupOf[primaryKey] = .some(nil)
            summary.primaryHash = primary
            output.write("{\"gatehouseHash\":" + JSONSerializer.string(.object(primary)) + ",\n\"users\":[")
        } else {
            output.write("{\"users\":[")
        }
        var after: String?
        var firstInUsers = true
        var firstGrouped = true
        while true {
            let page = try await store.read { [after, pageSize] tx in
                try tx.users(afterLocalId: after, limit: pageSize).map { ($0, try tx.identities(localId: $0.localId)) }
            }
            guard let last = page.last else { break }
            for (user, identities) in page {
                var object = Self.render(user, identities: identities)
                var group: Int?
                if let credential = user.password {
                    let key = Self.key(credential)
                    if let known = groupOf[key] {
                        group = known
                    } else {
                        // A configuration the first pass did not make primary: a new group (unknown algorithms too,
                        // so no user is left out; `gateway users import` reports those it cannot read).
                        let options = Self.hashOptions(key: key) ?? ["hashAlgorithm": .string(credential.algorithm)]
                        summary.groups.append(options)
                        group = summary.groups.count - 1
                        groupOf[key] = .some(group)
                    }
                }
                if let group {
                    object["gatehouseHashGroup"] = .int(Int64(group))
                    grouped.write((firstGrouped ? "\n" : ",\n") + JSONSerializer.string(.object(object)))
                    firstGrouped = false
                    summary.groupedUsers += 1
                } else {
                    output.write((firstInUsers ? "\n" : ",\n") + JSONSerializer.string(.object(object)))
                    firstInUsers = false
                }
                summary.users += 1
            }
            after = last.0.localId
            progress?.update(done: summary.users, users: summary.users)
        }
        output.write("\n]")
        if !summary.groups.isEmpty {
            output.write(",\n\"gatehouseHashGroups\":" + JSONSerializer.string(.array(summary.groups.map(JSONValue.object))))
            output.write(",\n\"gatehouseUsers\":[")
            try grouped.close()
            try output.append(contentsOf: groupsPath)
            output.write("\n]")
        } else {
            try grouped.close()
        }
        output.write("}\n")
        try output.close()
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        completed = true
        progress?.finish(done: summary.users, users: summary.users)
        return summary
    }

    /// The stored hash configuration most users have: the one `users` carries, so `firebase auth:import` with one
    /// set of flags takes as many users as possible. A first pass over the accounts (without their identities).
    private func mostCommonHashKey() async throws -> String? {
        var counts: [String: Int] = [:]
        var after: String?
        while true {
            let page = try await store.read { [after, pageSize] tx in try tx.users(afterLocalId: after, limit: pageSize) }
            guard let last = page.last else { break }
            for credential in page.lazy.compactMap(\.password) { counts[Self.key(credential), default: 0] += 1 }
            after = last.localId
        }
        return counts.filter { Self.hashOptions(key: $0.key) != nil }.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }

    /// Credentials with the same algorithm and parameter text share a configuration (the salt and hash differ).
    private static func key(_ credential: PasswordCredential) -> String {
        credential.algorithm + "\u{0}" + credential.parameters
    }

    private static func hashOptions(key: String) -> JSONObject? {
        let parts = key.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let probe = PasswordCredential(algorithm: String(parts[0]), parameters: String(parts[1]), hash: [], salt: [])
        return ImportedPasswordCredential.parameters(of: probe).map(ImportHashOptions.render)
    }

    /// One user as `auth:export` writes it: hashes in standard base64, times in milliseconds as strings.
    static func render(_ user: UserRecord, identities: [ProviderIdentity]) -> JSONObject {
        var object: JSONObject = ["localId": .string(user.localId)]
        object.set("email", user.email)
        object["emailVerified"] = .bool(user.emailVerified)
        if let password = user.password {
            object["passwordHash"] = .string(Base64.encode(password.hash))
            object["salt"] = .string(Base64.encode(password.salt))
        }
        object.set("displayName", user.displayName)
        object.set("photoUrl", user.photoUrl)
        object.set("lastSignedInAt", user.lastLoginAt.map { String($0) })
        object["createdAt"] = .string(String(user.createdAt))
        object.set("phoneNumber", user.phoneNumber)
        object["disabled"] = .bool(user.disabled)
        object.set("customAttributes", user.customAttributes)
        if !identities.isEmpty {
            object["providerUserInfo"] = .array(identities.map { identity in
                var entry: JSONObject = ["providerId": .string(identity.providerId), "rawId": .string(identity.federatedId)]
                entry.set("email", identity.email)
                entry.set("displayName", identity.displayName)
                entry.set("photoUrl", identity.photoUrl)
                return .object(entry)
            })
        }
        return object
    }
}

/// A file written in large blocks (one `write(2)` per megabyte, not per user).
final class BufferedFile {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The first failed write; later writes are dropped and `close()` reports it, so a full disk fails the export.
    private var failure: (any Error)?
    private static let blockSize = 1 << 20

    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Arguments.Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        buffer.reserveCapacity(Self.blockSize)
    }

    func write(_ text: String) {
        guard failure == nil else { return }
        buffer.append(contentsOf: text.utf8)
        guard buffer.count >= Self.blockSize else { return }
        do { try flush() } catch {
            failure = error
            buffer.removeAll()
        }
    }

    /// Appends another file's contents.
    func append(contentsOf path: String) throws {
        try flush()
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Arguments.Failure(description: "cannot read \(path)") }
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: Self.blockSize), !chunk.isEmpty {
            buffer.append(contentsOf: chunk)
            try flush()
        }
    }

    func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, buffer.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Arguments.Failure(description: "write failed: \(String(cString: strerror(errno)))") }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        if let failure { throw failure }
        try flush()
        guard fsync(descriptor) == 0, Glibc.close(descriptor) == 0 else {
            throw Arguments.Failure(description: "closing the export failed: \(String(cString: strerror(errno)))")
        }
    }
}
