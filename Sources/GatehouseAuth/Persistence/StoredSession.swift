import Foundation

/// What a session store holds for a signed-in user: the tokens, the profile last read, and the gateway they
/// belong to (a session of another gateway is ignored, not sent there).
struct StoredSession: Codable, Sendable {
    static let currentVersion = 1

    var version: Int
    var gateway: String
    var tokens: TokenPair
    var profile: UserProfile

    init(gateway: URL, tokens: TokenPair, profile: UserProfile) {
        version = Self.currentVersion
        self.gateway = gateway.absoluteString
        self.tokens = tokens
        self.profile = profile
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    static func decode(_ data: Data) -> StoredSession? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let session = try? decoder.decode(StoredSession.self, from: data), session.version == currentVersion else { return nil }
        return session
    }
}
