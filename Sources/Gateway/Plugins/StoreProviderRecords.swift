import AuthCore
import Crypto
import ProviderKit
import Storage

/// `ProviderRecords` over the store's one-time tokens of kind `record.<providerId>`: keys are stored as their
/// SHA-256, so a record is found only by whoever knows its key (a deletion confirmation code), and every
/// instance sharing the database sees it.
struct StoreProviderRecords: ProviderRecords {
    let store: any UserStore
    let provider: ProviderID
    let time: any TimeSource

    var kind: String { StoredKinds.providerRecord(provider) }

    func put(_ key: String, value: String, expiresAt: Int64) async throws {
        let record = OneTimeTokenRecord(kind: kind, tokenHash: SHA256.hash(key), payload: value,
                                        createdAt: time.nowMilliseconds, expiresAt: expiresAt)
        try await store.write { [kind] tx in
            _ = try tx.takeOneTimeToken(kind: kind, hash: record.tokenHash)
            try tx.insertOneTimeToken(record)
        }
    }

    func value(for key: String) async throws -> String? {
        let now = time.nowMilliseconds
        let record = try await store.read { [kind] tx in try tx.oneTimeToken(kind: kind, hash: SHA256.hash(key)) }
        guard let record, record.expiresAt > now else { return nil }
        return record.payload
    }
}
