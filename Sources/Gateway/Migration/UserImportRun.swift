import AuthCore
import Crypto
import Storage
import WireFormats

/// `gateway users import FILE`: reads an `auth:export` file (JSON or CSV) and writes its users into the store
/// directly, a batch per transaction, so it is safe beside running gateways and every committed batch survives an
/// interruption. Users whose `localId` is already stored are skipped, which makes a second run resume where the
/// first stopped and a repeated run change nothing.
///
/// Hashes: the flags (the Firebase console's "password hash parameters") apply to the file's `users`; a file the
/// gateway exported carries its own configurations in its extension (`gatehouseHash`, `gatehouseHashGroups`), used
/// when no flags are given.
struct UserImportRun {
    enum Format: String {
        case json, csv
    }

    struct Summary: Sendable {
        var imported = 0
        var skipped = 0
        /// `(user, message)`: the user's `localId`, or `#n` (its position in the file) when it has none.
        var failures: [(String, String)] = []
        var total: Int { imported + skipped + failures.count }

        mutating func add(_ other: Summary) {
            imported += other.imported
            skipped += other.skipped
            failures += other.failures
        }
    }

    let store: any UserStore
    let flagsHash: ForeignHashParameters?
    var batchSize = 1000
    var now: Int64

    /// A batch parsed off the writer's path: accounts to write and users refused before any write.
    private struct Batch: Sendable {
        var accounts: [(Int, ImportedAccount)] = []
        var labels: [String] = []
        /// `(label, message, localId)`: the localId when the user has one (a stored user is skipped, not failed).
        var refused: [(String, String, String?)] = []
    }

    /// One user as the file gives it: the bytes of a JSON object (parsed with the batch) or a CSV row's object.
    enum PendingUser: Sendable {
        case json(member: String, ArraySlice<UInt8>)
        case object(JSONObject)
    }

    /// The hash configurations in force for a batch: the file's (or the flags') and the extension's groups.
    struct Hashes: Sendable {
        var file: ImportedPasswordCredential.Template?
        var groups: [ImportedPasswordCredential.Template] = []
    }

    func run(_ bytes: [UInt8], format: Format, progress: ProgressDisplay?) async throws -> Summary {
        var summary = Summary()
        var pending: [PendingUser] = []
        var source = Source(bytes: bytes, format: format)
        var hashes = Hashes(file: flagsHash.map(ImportedPasswordCredential.Template.init))
        var ordinal = 0
        var write: Task<Summary, any Error>?

        func flush(_ users: [PendingUser], first: Int) async throws {
            let batch = await Self.parseInParallel(users, hashes: hashes, first: first, now: now)
            // The previous batch's write ran while this one was parsed: collect it before starting the next.
            if let previous = write { summary.add(try await previous.value) }
            write = Task { [store] in try await store.write { tx in try Self.write(batch, tx) } }
        }

        while let item = try source.next() {
            switch item {
            case .json(.member("gatehouseHash", let value)):
                if flagsHash == nil { hashes.file = try Self.hashOptions(value).map(ImportedPasswordCredential.Template.init) }
            case .json(.member("gatehouseHashGroups", .array(let items))):
                hashes.groups = try items.map { item in
                    guard let options = try Self.hashOptions(item) else {
                        throw AuthExportJSONReader.Failure.malformed(offset: 0, "a gatehouseHashGroups entry names no hashAlgorithm")
                    }
                    return ImportedPasswordCredential.Template(options)
                }
            case .json(.member):
                continue
            case .json(.user(let member, let slice)):
                pending.append(.json(member: member, slice))
            case .csv(let object):
                pending.append(.object(object))
            }
            if pending.count >= batchSize {
                try await flush(pending, first: ordinal)
                ordinal += pending.count
                pending.removeAll(keepingCapacity: true)
                progress?.update(done: source.position, users: summary.total + (write == nil ? 0 : batchSize))
            }
        }
        if !pending.isEmpty { try await flush(pending, first: ordinal) }
        if let last = write { summary.add(try await last.value) }
        progress?.finish(done: bytes.count, users: summary.total)
        return summary
    }

    /// Writes a checked batch. A user refused by the checks but stored by an earlier run (with other flags, say)
    /// is already imported: skipped, so resuming never turns finished work into failures.
    private static func write(_ batch: Batch, _ tx: any StoreTransaction) throws -> Summary {
        let outcome = try AccountImportWriter.write(batch.accounts, existing: .skip, tx)
        var result = Summary(imported: outcome.imported, skipped: outcome.skipped,
                             failures: outcome.failures.map { (batch.labels[$0.0], $0.1) })
        for (label, message, localId) in batch.refused {
            if let localId, try tx.user(localId: localId) != nil {
                result.skipped += 1
            } else {
                result.failures.append((label, message))
            }
        }
        return result
    }

    /// Parses and checks a batch in two halves at once (this costs more CPU than writing, and the writer has its
    /// own thread), keeping file order.
    private static func parseInParallel(_ users: [PendingUser], hashes: Hashes, first: Int, now: Int64) async -> Batch {
        let middle = users.count / 2
        guard middle > 0 else { return parse(users[...], hashes: hashes, first: first, now: now) }
        async let head = parse(users[..<middle], hashes: hashes, first: first, now: now)
        let tail = parse(users[middle...], hashes: hashes, first: first, now: now)
        var batch = await head
        let offset = batch.labels.count
        batch.accounts += tail.accounts.map { ($0.0 + offset, $0.1) }
        batch.labels += tail.labels
        batch.refused += tail.refused
        return batch
    }

    /// Checks each user of a batch; `accounts` positions index `labels`. A user that is not valid JSON fails alone.
    private static func parse(_ users: ArraySlice<PendingUser>, hashes: Hashes, first: Int, now: Int64) -> Batch {
        var batch = Batch()
        for (position, user) in zip(users.indices, users) {
            var label = "#\(first + position + 1)"
            var localId: String?
            do {
                var object: JSONObject
                var hash = hashes.file
                switch user {
                case .object(let given):
                    object = given
                case .json(let member, let slice):
                    guard case .object(let parsed) = try JSONParser.parse(Array(slice)) else {
                        throw ImportedAccount.Refusal("not a JSON object")
                    }
                    object = parsed
                    if member == "gatehouseUsers" {
                        let index = object["gatehouseHashGroup"]?.intValue.map(Int.init) ?? -1
                        hash = hashes.groups.indices.contains(index) ? hashes.groups[index] : nil
                    }
                }
                if let id = object["localId"]?.stringValue, !id.isEmpty { label = id; localId = id }
                let account = try ImportedAccount(object, hash: hash, now: now, normalizingKeys: false)
                batch.accounts.append((batch.labels.count, account))
                batch.labels.append(label)
            } catch let refusal as ImportedAccount.Refusal {
                batch.refused.append((label, refusal.message, localId))
            } catch let error as JSONParseError {
                batch.refused.append((label, "not valid JSON: \(error.description)", nil))
            } catch {
                batch.refused.append((label, "\(error)", localId))
            }
        }
        return batch
    }

    static func hashOptions(_ value: JSONValue) throws -> ForeignHashParameters? {
        guard case .object(let object) = value else {
            throw AuthExportJSONReader.Failure.malformed(offset: 0, "a hash configuration must be an object")
        }
        return try ImportHashOptions.parse(RequestBody(object: object))
    }

    /// The file's users, whatever its format.
    private struct Source {
        var json: AuthExportJSONReader?
        var csv: AuthExportCSV.Rows?

        init(bytes: [UInt8], format: Format) {
            switch format {
            case .json: json = AuthExportJSONReader(bytes: bytes)
            case .csv: csv = AuthExportCSV.Rows(bytes: bytes)
            }
        }

        var position: Int { json?.position ?? csv?.position ?? 0 }

        enum Item {
            case json(AuthExportJSONReader.Item)
            case csv(JSONObject)
        }

        mutating func next() throws -> Item? {
            if json != nil { return try json!.next().map(Item.json) }
            guard let row = csv?.next() else { return nil }
            return .csv(AuthExportCSV.user(row))
        }
    }
}
