import AuthCore
import Crypto
import Foundation
import Storage
import WireFormats

/// `gateway users import FILE` and `gateway users export FILE`: moving users in and out in the format of
/// `firebase auth:export`, against the configured database (`--data-dir` or `--database-url`), safe while gateways
/// run on it.
enum UsersCommands {
    /// firebase-tools' `auth:import` flags and the batchCreate field each one fills.
    static let hashFlags: [(flag: String, field: String)] = [
        ("hash-algo", "hashAlgorithm"), ("hash-key", "signerKey"), ("salt-separator", "saltSeparator"),
        ("rounds", "rounds"), ("parallelization", "parallelization"), ("block-size", "blockSize"), ("dk-len", "dkLen"),
    ]

    /// The exit code and what to print on standard output.
    static func run(_ words: [String], flags: [String: String], configuration: GatewayConfiguration) async throws -> (Int32, String) {
        guard words.count == 3 else {
            throw Arguments.Failure(description: "usage: gateway users import FILE | gateway users export FILE (see gateway help users)")
        }
        switch words[1] {
        case "import": return try await importUsers(from: words[2], flags: flags, configuration: configuration)
        case "export": return (0, try await exportUsers(to: words[2], configuration: configuration))
        default: throw Arguments.Failure(description: "unknown command \"users \(words[1])\" (see gateway help users)")
        }
    }

    static func importUsers(from path: String, flags: [String: String],
                            configuration: GatewayConfiguration) async throws -> (Int32, String) {
        let hash = try hashOptions(flags)
        let format = try format(of: path, flags: flags)
        let batchSize = try flags["batch-size"].map { text in
            guard let size = Int(text), (1...10_000).contains(size) else {
                throw Arguments.Failure(description: "--batch-size must be 1 to 10000")
            }
            return size
        } ?? 1000
        let bytes = try readWholeFile(path)
        let store = try StoreOpening.openStore(configuration)
        let summary: UserImportRun.Summary
        do {
            var run = UserImportRun(store: store, flagsHash: hash, now: SystemTime().nowMilliseconds)
            run.batchSize = batchSize
            summary = try await run.run(bytes, format: format, progress: ProgressDisplay(total: bytes.count, verb: "imported"))
        } catch {
            await GatewayCommand.closeReporting(store)
            throw error
        }
        await GatewayCommand.closeReporting(store)
        return (summary.failures.isEmpty ? 0 : 1, report(summary))
    }

    static func report(_ summary: UserImportRun.Summary, maxListed: Int = 1000) -> String {
        var lines = ["\(summary.total) users read: \(summary.imported) imported, \(summary.skipped) already there (skipped), "
            + "\(summary.failures.count) failed"]
        for (user, message) in summary.failures.prefix(maxListed) { lines.append("  failed \(user): \(message)") }
        if summary.failures.count > maxListed { lines.append("  … and \(summary.failures.count - maxListed) more") }
        return lines.joined(separator: "\n")
    }

    static func exportUsers(to path: String, configuration: GatewayConfiguration) async throws -> String {
        let store = try StoreOpening.openStore(configuration)
        let summary: UserExportRun.Summary
        do {
            let total = try await store.read { try $0.userCount() }
            summary = try await UserExportRun(store: store).run(to: path, progress: ProgressDisplay(total: total, verb: "exported"))
        } catch {
            await GatewayCommand.closeReporting(store)
            throw error
        }
        await GatewayCommand.closeReporting(store)
        var lines = ["exported \(summary.users) users to \(path)"]
        if var primary = summary.primaryHash {
            // The signer key is a secret: it is in the file, not in what may end up in a terminal log.
            if primary["signerKey"] != nil { primary["signerKey"] = "(in the file)" }
            lines.append("password hash of the users in \"users\": \(JSONSerializer.string(.object(primary)))")
        }
        if !summary.groups.isEmpty {
            lines.append("\(summary.groupedUsers) users have other hash configurations (\"gatehouseHashGroups\", \"gatehouseUsers\"): "
                + "gateway users import reads them; firebase auth:import needs one run per configuration")
        }
        return lines.joined(separator: "\n")
    }

    /// The hash configuration the flags give, checked like batchCreate's; nil without `--hash-algo`.
    static func hashOptions(_ flags: [String: String]) throws -> ForeignHashParameters? {
        guard let algorithm = flags["hash-algo"] else {
            if let stray = hashFlags.first(where: { flags[$0.flag] != nil }) ?? (flags["mem-cost"] != nil ? ("mem-cost", "") : nil) {
                throw Arguments.Failure(description: "--\(stray.flag) needs --hash-algo")
            }
            return nil
        }
        var fields: JSONObject = [:]
        for (flag, field) in hashFlags {
            guard let value = flags[flag] else { continue }
            fields[field] = Int64(value).map(JSONValue.int) ?? .string(value)
        }
        fields["hashAlgorithm"] = .string(algorithm.uppercased())
        if let cost = flags["mem-cost"] {
            let field = algorithm.uppercased() == "STANDARD_SCRYPT" ? "cpuMemCost" : "memoryCost"
            fields[field] = Int64(cost).map(JSONValue.int) ?? .string(cost)
        }
        switch flags["hash-input-order"]?.uppercased() {
        case nil: break
        case "SALT_FIRST"?: fields["passwordHashOrder"] = "SALT_AND_PASSWORD"
        case "PASSWORD_FIRST"?: fields["passwordHashOrder"] = "PASSWORD_AND_SALT"
        case let other?: throw Arguments.Failure(description: "--hash-input-order must be SALT_FIRST or PASSWORD_FIRST, not \(other)")
        }
        do {
            return try ImportHashOptions.parse(RequestBody(object: fields))
        } catch let error as AuthError {
            throw Arguments.Failure(description: "hash parameters: \(error.message)")
        }
    }

    /// The file's bytes, read straight into one array (a `Data` first would hold a large export twice).
    static func readWholeFile(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw Arguments.Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let size = Int(status.st_size)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let got = read(descriptor, buffer.baseAddress! + count, size - count)
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { failed = got < 0; break }
                count += got
            }
        }
        guard !failed else { throw Arguments.Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        return bytes
    }

    static func format(of path: String, flags: [String: String]) throws -> UserImportRun.Format {
        if let given = flags["format"] {
            guard let format = UserImportRun.Format(rawValue: given.lowercased()) else {
                throw Arguments.Failure(description: "--format must be json or csv")
            }
            return format
        }
        return path.lowercased().hasSuffix(".csv") ? .csv : .json
    }
}
