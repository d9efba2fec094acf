import AuthCore
import Crypto
import Foundation
@testable import Gateway
import Storage
import TestSupport
import Testing
import WireFormats

@Suite("store selection and the master key that goes with it")
struct StoreSelectionTests {
    private static let postgres = "postgres://gate:pw-secret@db.internal:5432/auth"

    private func configuration(url: String? = nil, keyFile: String? = nil) -> GatewayConfiguration {
        var config = GatewayConfiguration()
        config.dataDirectory = NSTemporaryDirectory() + "gh-select-\(UUID().uuidString)"
        config.database.url = url
        config.database.masterKeyFile = keyFile
        return config
    }

    @Test("databaseUrl, databasePoolSize and masterKeyFile come from file, environment and flags in that precedence")
    func loading() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("gatehouse.json")
        try #"{"databaseUrl":"postgres://file/db","databasePoolSize":3,"masterKeyFile":"/k1"}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let fromFile = try ConfigurationLoader.load(flags: ["config": path], environment: [:])
        #expect(fromFile.database.url == "postgres://file/db" && fromFile.database.poolSize == 3)
        let overridden = try ConfigurationLoader.load(
            flags: ["config": path, "database-url": "postgresql://flag/db"],
            environment: ["GATEHOUSE_DATABASE_URL": "postgres://env/db", "GATEHOUSE_DATABASE_POOL_SIZE": "12",
                          "GATEHOUSE_MASTER_KEY_FILE": "/k2"])
        #expect(overridden.database.url == "postgresql://flag/db")
        #expect(overridden.database.poolSize == 12 && overridden.database.masterKeyFile == "/k2")
    }

    @Test("a database URL that is not PostgreSQL, or a pool size out of range, is refused without echoing a password")
    func validation() {
        #expect {
            try ConfigurationLoader.load(flags: ["database-url": "mysql://u:hunter2@h/db"], environment: [:])
        } throws: { error in "\(error)".contains("databaseUrl") && !"\(error)".contains("hunter2") }
        #expect(throws: ConfigurationLoader.Failure.self) {
            try ConfigurationLoader.load(flags: [:], environment: ["GATEHOUSE_DATABASE_POOL_SIZE": "0"])
        }
    }

    @Test("with PostgreSQL a master key generated in the data directory is refused")
    func postgresNeedsSharedKey() throws {
        let config = configuration(url: Self.postgres)
        #expect {
            try StoreOpening.masterKey(config, environment: [:])
        } throws: { error in "\(error)".contains("GATEHOUSE_MASTER_KEY") }
        #expect(!FileManager.default.fileExists(atPath: config.dataDirectory + "/master.key"))
        let (_, source) = try StoreOpening.masterKey(config, environment: ["GATEHOUSE_MASTER_KEY": String(repeating: "ab", count: 32)])
        #expect(source == "environment")
    }

    @Test("an explicit key file is read as it is and never created")
    func explicitKeyFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("master.key")
        let config = configuration(url: Self.postgres, keyFile: path)
        #expect(throws: MasterKey.LoadError.self) { try StoreOpening.masterKey(config, environment: [:]) }
        #expect(!FileManager.default.fileExists(atPath: path))
        let key = SymmetricKey.generate()
        #expect(FileManager.default.createFile(atPath: path, contents: Data((Hex.encode(key.bytes) + "\n").utf8),
                                               attributes: [.posixPermissions: 0o600]))
        let (loaded, source) = try StoreOpening.masterKey(config, environment: [:])
        #expect(loaded.bytes == key.bytes && source == "file \(path)")
    }

    @Test("the logged location of a PostgreSQL database has no password")
    func location() {
        #expect(StoreOpening.location(configuration(url: Self.postgres)) == "postgres://gate:***@db.internal:5432/auth")
    }
}

@Suite("master key check")
struct MasterKeyCheckTests {
    private let time = ManualTime(milliseconds: 1_000)

    @Test("the first instance records its key; the same key passes later, another key is refused")
    func mismatch() async throws {
        let store = InMemoryUserStore()
        let key = Sealer(masterKey: .generate())
        try await MasterKeyCheck.verify(store: store, sealer: key, time: time, location: "db")
        try await MasterKeyCheck.verify(store: store, sealer: key, time: time, location: "db")
        await #expect(throws: MasterKeyCheck.Mismatch.self) {
            try await MasterKeyCheck.verify(store: store, sealer: Sealer(masterKey: .generate()), time: time, location: "db")
        }
        // The probe never expires with the other one-time tokens.
        _ = try await store.write { tx in try tx.deleteExpiredOneTimeTokens(before: Int64.max) }
        try await MasterKeyCheck.verify(store: store, sealer: key, time: time, location: "db")
    }

    @Test("a database with keys from before the check is checked against them before the probe is recorded")
    func existingKeys() async throws {
        let store = InMemoryUserStore()
        try await store.write { tx in try tx.insertSigningKey(SharedSigningKey.record) }
        await #expect(throws: MasterKeyCheck.Mismatch.self) {
            try await MasterKeyCheck.verify(store: store, sealer: Sealer(masterKey: .generate()), time: time, location: "db")
        }
        try await MasterKeyCheck.verify(store: store, sealer: Sealer(masterKey: SharedSigningKey.masterKey), time: time,
                                        location: "db")
    }

    @Test("of instances with different keys starting together on an empty database, only one key is accepted")
    func race() async throws {
        let store = InMemoryUserStore()
        let time = self.time
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    (try? await MasterKeyCheck.verify(store: store, sealer: Sealer(masterKey: .generate()), time: time,
                                                      location: "db")) != nil
                }
            }
            var all: [Bool] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.filter { $0 }.count == 1)
    }
}
