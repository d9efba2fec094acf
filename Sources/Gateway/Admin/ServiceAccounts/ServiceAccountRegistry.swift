import AuthCore
import Storage
import WireFormats

/// Where service accounts live: one settings row per account (`serviceAccount.<client email>`), so every
/// instance sharing the database trusts the same accounts, `migrate-storage` copies them with the settings,
/// and adding or removing one account never rewrites another. Read on every use (a grant, a custom token, an
/// admin call with an access token): removing an account takes effect at once, on every instance.
struct ServiceAccountRegistry: Sendable {
    static let keyPrefix = "serviceAccount."

    let store: any UserStore

    func account(_ clientEmail: String) async throws -> ServiceAccount? {
        try await store.read { tx in try Self.account(clientEmail, tx) }
    }

    func all() async throws -> [ServiceAccount] {
        try await store.read { tx in
            try tx.settings().filter { $0.key.hasPrefix(Self.keyPrefix) }.sorted { $0.key < $1.key }
                .compactMap { Self.decode($0.value) }
        }
    }

    /// Stores `account`; an account already registered under the email keeps its other keys (a new key is
    /// added, one with the same key id replaced), so keys can be rotated without a gap.
    @discardableResult
    func register(_ account: ServiceAccount) async throws -> ServiceAccount {
        try await store.write { tx in
            var merged = account
            if let existing = try Self.account(account.clientEmail, tx) {
                let added = Set(account.keys.map(\.keyId))
                merged.keys = existing.keys.filter { !added.contains($0.keyId) } + account.keys
                merged.createdAt = existing.createdAt
                merged.origin = existing.origin
            }
            try tx.setSetting(Self.keyPrefix + account.clientEmail, value: JSONSerializer.string(.object(merged.json)))
            return merged
        }
    }

    /// Removes the account (every key), or with `keyId` only that key. Returns whether anything was removed.
    func remove(_ clientEmail: String, keyId: String? = nil) async throws -> Bool {
        try await store.write { tx in
            guard var account = try Self.account(clientEmail, tx) else { return false }
            let key = Self.keyPrefix + clientEmail
            guard let keyId else {
                try tx.setSetting(key, value: nil)
                return true
            }
            let before = account.keys.count
            account.keys.removeAll { $0.keyId == keyId }
            guard account.keys.count < before else { return false }
            try tx.setSetting(key, value: account.keys.isEmpty ? nil : JSONSerializer.string(.object(account.json)))
            return true
        }
    }

    private static func account(_ clientEmail: String, _ tx: any StoreTransaction) throws -> ServiceAccount? {
        try tx.setting(keyPrefix + clientEmail).flatMap(decode)
    }

    private static func decode(_ text: String) -> ServiceAccount? {
        (try? JSONParser.parse(text))?.objectValue.flatMap(ServiceAccount.init(json:))
    }
}
