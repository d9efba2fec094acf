import AuthCore
import Crypto
import Foundation
@testable import Gateway
import Storage
import Testing
import WireFormats

/// The pieces of `gateway users import|export` below the command line: the streaming reader of auth:export JSON,
/// the CSV columns, the resumable import into a store and the export's hash groups.
@Suite("Migration files (auth:export JSON and CSV, import runs, export)")
struct MigrationFileTests {
    static func items(_ text: String) throws -> [AuthExportJSONReader.Item] {
        var reader = AuthExportJSONReader(bytes: Array(text.utf8))
        var items: [AuthExportJSONReader.Item] = []
        while let item = try reader.next() { items.append(item) }
        return items
    }

    @Test("the reader cuts users out one by one, with braces, brackets and escaped quotes inside strings")
    func streamingReader() throws {
        let text = """
            {"gatehouseHash": {"hashAlgorithm": "BCRYPT"}, "users": [
              {"localId": "a", "displayName": "Curly } and ] \\"quoted\\" {"},
              {"localId": "b", "providerUserInfo": [{"providerId": "x.com", "rawId": "1"}]}
            ], "other": 42, "gatehouseUsers": [], "users": [{"localId": "c"}]}
            """
        let items = try Self.items(text)
        #expect(items.count == 5)
        guard case .member("gatehouseHash", let hash) = items[0] else { Issue.record("no hash member"); return }
        #expect(hash["hashAlgorithm"] == "BCRYPT")
        guard case .user("users", let firstBytes) = items[1], case .user("users", let secondBytes) = items[2],
              case .member("other", .int(42)) = items[3], case .user("users", let thirdBytes) = items[4]
        else { Issue.record("unexpected items \(items)"); return }
        let first = try JSONParser.parse(Array(firstBytes))
        let second = try JSONParser.parse(Array(secondBytes))
        let third = try JSONParser.parse(Array(thirdBytes))
        #expect(first["displayName"] == "Curly } and ] \"quoted\" {")
        #expect(second["providerUserInfo"]?.arrayValue?.count == 1)
        #expect(third["localId"] == "c")
        #expect(try Self.items("{}").isEmpty)
        #expect(try Self.items("{\"users\": []}").isEmpty)
    }

    @Test("truncated or foreign files are refused with the byte offset, never read as fewer users")
    func malformedFiles() {
        for text in ["", "[]", "{\"users\": [{\"localId\": \"a\"}", "{\"users\": [1]}", "{\"users\": [{\"localId\": \"a\"} {}]}",
                     "{\"users\": [{\"localId\": \"a\"}]", "{\"users\": [{\"localId\": \"a"] {
            #expect(throws: AuthExportJSONReader.Failure.self, "\(text)") { _ = try Self.items(text) }
        }
    }

    @Test("CSV rows: quoted fields with commas, doubled quotes and line breaks; providers at their fixed columns")
    func csvRows() {
        var columns = [String](repeating: "", count: 52)
        columns[0] = "u1"; columns[1] = "u1@example.com"; columns[2] = "true"; columns[5] = "\"Ada, \"\"the\"\" first\""
        columns[19] = "gh-7"; columns[20] = "ada@github.test"; columns[23] = "1600000000000"; columns[26] = "true"
        columns[28] = "apple-1"
        var rows = AuthExportCSV.Rows(bytes: Array((columns.joined(separator: ",") + "\r\nu2,\"multi\nline\"\n\n").utf8))
        let first = AuthExportCSV.user(rows.next() ?? [])
        #expect(first["localId"] == "u1" && first["emailVerified"] == true && first["disabled"] == true)
        #expect(first["displayName"] == "Ada, \"the\" first")
        #expect(first["createdAt"] == "1600000000000")
        #expect(first["providerUserInfo"] == [["providerId": "github.com", "rawId": "gh-7", "email": "ada@github.test"],
                                              ["providerId": "apple.com", "rawId": "apple-1"]])
        #expect(rows.next() == ["u2", "multi\nline"])
        #expect(rows.next() == nil)
    }

    @Test("an import run skips stored users, so a second run resumes and a third changes nothing")
    func resumableRun() async throws {
        let store = InMemoryUserStore()
        let key = Array("k".utf8)
        let users = (0..<25).map { index -> String in
            let salt = Array("s\(index)".utf8)
            let hash = try! ForeignPasswordHash.derive(password: Array("pw\(index)".utf8), salt: salt,
                                                       parameters: .init(algorithm: .hmacSHA256, signerKey: key), storedHash: [])
            return "{\"localId\":\"u\(index)\",\"email\":\"u\(index)@example.com\",\"passwordHash\":\"\(Base64.encode(hash))\","
                + "\"salt\":\"\(Base64.encode(salt))\"}"
        }
        let hash = ForeignHashParameters(algorithm: .hmacSHA256, signerKey: key)
        var run = UserImportRun(store: store, flagsHash: hash, now: 1_700_000_000_000)
        run.batchSize = 4
        let firstTen = Array(("{\"users\":[" + users.prefix(10).joined(separator: ",") + "]}").utf8)
        #expect(try await run.run(firstTen, format: .json, progress: nil).imported == 10)
        let all = Array(("{\"users\":[" + users.joined(separator: ",") + ",{\"localId\":\"bad\",\"email\":\"x\"}"
            + ",{\"localId\":\"broken\",\"email\": }]}").utf8)
        let second = try await run.run(all, format: .json, progress: nil)
        #expect((second.imported, second.skipped) == (15, 10))
        #expect(second.failures.map(\.0) == ["bad", "#27"])
        #expect(second.failures.first?.1 == "email is invalid" && second.failures.last?.1.hasPrefix("not valid JSON") == true)
        // A third run, even without the hash flags, skips what is stored instead of failing it.
        let third = try await UserImportRun(store: store, flagsHash: nil, now: 0).run(all, format: .json, progress: nil)
        #expect((third.imported, third.skipped, third.failures.count) == (0, 25, 2))
        let stored = try #require(try await store.read { try $0.user(localId: "u24") })
        #expect(ImportedPasswordCredential.verify("pw24", against: try #require(stored.password)))
        #expect(stored.createdAt == 1_700_000_000_000)
    }

    @Test("export puts the most common hash in users and the others in groups; importing it restores every hash")
    func exportRoundTrip() async throws {
        let store = InMemoryUserStore()
        let hmac = ForeignHashParameters(algorithm: .hmacSHA1, signerKey: [1, 2, 3])
        let md5 = ForeignHashParameters(algorithm: .md5, rounds: 3)
        try await store.write { tx in
            for index in 0..<5 {
                let parameters = index == 4 ? md5 : hmac
                try tx.insertUser(UserRecord(
                    localId: "e\(index)", email: "e\(index)@example.com",
                    password: ImportedPasswordCredential.make(hash: [UInt8(index)], salt: [9], parameters: parameters),
                    customAttributes: "{\"n\":\(index)}", validSince: 0, createdAt: 1000 + Int64(index)))
            }
            try tx.insertUser(UserRecord(localId: "nopw", validSince: 0, createdAt: 1))
            try tx.insertIdentity(ProviderIdentity(providerId: "github.com", federatedId: "9", localId: "nopw", linkedAt: 1))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("users.json").path
        let summary = try await UserExportRun(store: store, pageSize: 2).run(to: path, progress: nil)
        #expect(summary.users == 6 && summary.groupedUsers == 1)
        #expect(summary.primaryHash?["hashAlgorithm"] == "HMAC_SHA1")
        #expect(summary.groups.map { $0["hashAlgorithm"] } == ["MD5"])
        let document = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), maxMembers: 100_000)
        #expect(document["users"]?.arrayValue?.map { $0["localId"] } == ["e0", "e1", "e2", "e3", "nopw"])
        #expect(document["gatehouseUsers"]?.arrayValue?.first?["gatehouseHashGroup"] == 0)
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))

        let fresh = InMemoryUserStore()
        let imported = try await UserImportRun(store: fresh, flagsHash: nil, now: 0)
            .run(Array(try Data(contentsOf: URL(fileURLWithPath: path))), format: .json, progress: nil)
        #expect(imported.imported == 6 && imported.failures.isEmpty)
        let before = try await store.read { tx in try tx.users(afterLocalId: nil, limit: 10) }
        let after = try await fresh.read { tx in try tx.users(afterLocalId: nil, limit: 10) }
        #expect(after.map(\.password) == before.map(\.password))
        #expect(after.map(\.customAttributes) == before.map(\.customAttributes))
        #expect(after.map(\.createdAt) == before.map(\.createdAt))
        #expect(try await fresh.read { try $0.identities(localId: "nopw").map(\.federatedId) } == ["9"])
    }

    @Test("stored imported credentials read back as the parameters they were made with")
    func credentialRoundTrip() {
        let cases: [ForeignHashParameters] = [
            .init(algorithm: .firebaseScrypt, signerKey: [1], saltSeparator: [7], rounds: 8, memoryCost: 14),
            .init(algorithm: .standardScrypt, memoryCost: 1024, parallelization: 2, blockSize: 8, derivedKeyLength: 48),
            .init(algorithm: .bcrypt), .init(algorithm: .pbkdf2SHA256, rounds: 1000),
            .init(algorithm: .hmacMD5, signerKey: [5], saltFirst: true), .init(algorithm: .sha512, rounds: 20, saltFirst: false),
        ]
        for parameters in cases {
            let credential = ImportedPasswordCredential.make(hash: [1], salt: [2], parameters: parameters)
            #expect(ImportedPasswordCredential.parameters(of: credential) == parameters, "\(parameters.algorithm)")
        }
        let own = PasswordCredential(algorithm: "SCRYPT", parameters: "{\"n\":32768,\"r\":8,\"p\":1,\"length\":32}", hash: [1], salt: [2])
        #expect(ImportedPasswordCredential.parameters(of: own)
            == .init(algorithm: .standardScrypt, memoryCost: 32768, parallelization: 1, blockSize: 8, derivedKeyLength: 32))
        #expect(!ImportedPasswordCredential.verify("x", against: own))
    }

    @Test("progress: a redrawn bar with rate and ETA on a terminal, plain lines elsewhere")
    func progressDisplay() {
        final class Lines: @unchecked Sendable { var text: [String] = [] }
        let terminal = Lines()
        let bar = ProgressDisplay(total: 100, verb: "imported", terminal: true) { terminal.text.append($0) }
        bar.update(done: 50, users: 500, force: true)
        bar.finish(done: 100, users: 1000)
        #expect(terminal.text.first?.hasPrefix("\r\u{1B}[K[###############...............] imported 500 users, 50%") == true)
        #expect(terminal.text.first?.contains("users/s, ETA") == true)
        #expect(terminal.text.last == "\n")
        let log = Lines()
        let plain = ProgressDisplay(total: 100, verb: "exported", terminal: false) { log.text.append($0) }
        plain.update(done: 10, users: 10)
        plain.finish(done: 100, users: 100)
        #expect(log.text.count == 1 && log.text[0].hasPrefix("exported 100 users, 100%") && log.text[0].hasSuffix("ETA 0s\n"))
        #expect(ProgressDisplay.line(verb: "imported", done: 25, total: 100, users: 250, elapsed: .seconds(5), bar: false)
            == "imported 250 users, 25%, 50 users/s, ETA 15s")
    }
}
