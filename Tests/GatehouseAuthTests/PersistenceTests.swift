import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Persistence: the session survives a new Auth instance, in a 0600 file")
    struct PersistenceTests {
        static func directory() -> URL {
            FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-auth-store-\(Unique.token())")
        }

        static func permissions(_ url: URL) throws -> Int {
            try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }

        @Test("a new Auth on the same store restores the user, whose session keeps working; sign-out removes the file")
        func acrossInstances() async throws {
            let environment = try ClientEnvironment.shared
            let directory = Self.directory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = FileSessionStore(directory: directory)
            let first = try environment.auth(store: store)
            let apple = try await first.signIn(with: environment.appleCredential(sub: Unique.subject("apple"), email: Unique.email("p"))).user
            let file = store.file(for: first.configuration.sessionKey)
            #expect(try Self.permissions(file) == 0o600 && Self.permissions(directory) == 0o700)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [file.lastPathComponent])

            let second = try environment.auth(store: store)
            let restored = try #require(second.currentUser)
            func entries(_ user: User) -> [String] { user.providerData.map { "\($0.providerID) \($0.uid) \($0.email ?? "-")" } }
            #expect(restored.uid == apple.uid && restored.email == apple.email && entries(restored) == entries(apple))
            #expect(restored.metadata == apple.metadata && restored.refreshToken == apple.refreshToken)
            let seen = Locked<[String?]>([])
            second.addStateDidChangeListener { _, user in seen.withLock { $0.append(user?.uid) } }
            #expect(seen.current == [apple.uid])
            let token = try await restored.getIDToken(forcingRefresh: true)
            #expect(try await environment.api().lookup(idToken: token).status == 200)
            try await restored.reload()

            try second.signOut()
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(try environment.auth(store: store).currentUser == nil)
        }

        @Test("a save removes the temporary files a crash left behind, not one that another save is writing now")
        func crashLeftovers() throws {
            let directory = Self.directory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = FileSessionStore(directory: directory)
            try store.save(Data("first".utf8), key: "k")
            let target = store.file(for: "k").path
            let leftover = target + ".tmp-4242-1", inProgress = target + ".tmp-4242-2"
            for path in [leftover, inProgress] { #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8))) }
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: leftover)
            try store.save(Data("second".utf8), key: "k")
            #expect(!FileManager.default.fileExists(atPath: leftover))
            #expect(FileManager.default.fileExists(atPath: inProgress))
            #expect(try store.load(key: "k") == Data("second".utf8))
            try store.remove(key: "k")
            #expect(try store.load(key: "k") == nil)
        }

        @Test("a stored session of another gateway URL, or an unreadable one, is not restored")
        func foreignOrDamagedSessions() async throws {
            let environment = try ClientEnvironment.shared
            let store = InMemorySessionStore()
            let auth = try environment.auth(store: store)
            _ = try await auth.signInAnonymously()
            var elsewhere = environment.configuration(.short, store: store)
            #expect(elsewhere.sessionKey == auth.configuration.sessionKey)
            #expect(try Auth(configuration: elsewhere).currentUser == nil)
            elsewhere.appName = "second-app"
            #expect(try Auth(configuration: elsewhere).currentUser == nil)
            try store.save(Data("not json".utf8), key: auth.configuration.sessionKey)
            #expect(try environment.auth(store: store).currentUser == nil)
        }

        @Test("a store that fails is a keychainError, and nothing is half signed in")
        func failingStore() async throws {
            struct FailingStore: AuthSessionStore {
                struct Broken: Error {}
                func load(key: String) throws -> Data? { nil }
                func save(_ data: Data, key: String) throws { throw Broken() }
                func remove(key: String) throws { throw Broken() }
            }
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth(store: FailingStore())
            #expect(await authError { try await auth.signInAnonymously() }?.code == .keychainError)
            #expect(auth.currentUser == nil)
        }
    }
}
