import Foundation

/// Where the signed-in user's session (refresh token included) is kept between launches.
///
/// The library stores one JSON document per `Auth` under `key`. Implementations must be safe to call from any
/// thread; errors they throw surface as `AuthError(.keychainError)`.
public protocol AuthSessionStore: Sendable {
    func load(key: String) throws -> Data?
    func save(_ data: Data, key: String) throws
    func remove(key: String) throws
}

/// Keeps sessions in memory only: nothing survives the process (tests, app extensions that must not persist).
public final class InMemorySessionStore: AuthSessionStore {
    private let entries = Locked<[String: Data]>([:])

    public init() {}

    public func load(key: String) throws -> Data? { entries.withLock { $0[key] } }
    public func save(_ data: Data, key: String) throws { entries.withLock { $0[key] = data } }
    public func remove(key: String) throws { _ = entries.withLock { $0.removeValue(forKey: key) } }
}

extension AuthSessionStore where Self == InMemorySessionStore {
    public static var inMemory: InMemorySessionStore { InMemorySessionStore() }
}

/// The platform's default: the Keychain on Apple platforms, a file readable only by the user elsewhere
/// (`$XDG_DATA_HOME/gatehouse-auth`, else `~/.local/share/gatehouse-auth`).
public enum DefaultSessionStore {
    public static func make() -> any AuthSessionStore {
        #if canImport(Security)
        return KeychainSessionStore()
        #else
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return FileSessionStore(directory: base.appendingPathComponent("gatehouse-auth"))
        #endif
    }
}
