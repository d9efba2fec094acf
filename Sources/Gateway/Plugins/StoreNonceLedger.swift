import AuthCore
import Storage
import ProviderKit

/// `NonceLedger` over the store's one-time tokens: a used value is a row `(kind, SHA-256)` whose insert fails
/// with a unique violation the second time. Because the row lives in the database, a replay is caught after a
/// restart and on any other instance sharing the database.
struct StoreNonceLedger: NonceLedger {
    let store: any UserStore
    let kind: String
    let time: any TimeSource

    func consume(_ hash: [UInt8], expiresAt: Int64) async throws -> Bool {
        let now = time.nowMilliseconds
        let record = OneTimeTokenRecord(kind: kind, tokenHash: hash, payload: "", createdAt: now, expiresAt: expiresAt)
        do {
            try await store.write { tx in
                // An expired row would block a value that is legitimately new again only after its credential
                // died, which cannot pass verification anyway; clearing it keeps the table small.
                if let old = try tx.oneTimeToken(kind: kind, hash: hash), old.expiresAt < now {
                    _ = try tx.takeOneTimeToken(kind: kind, hash: hash)
                }
                try tx.insertOneTimeToken(record)
            }
            return true
        } catch StoreError.uniqueViolation(.oneTimeToken) {
            return false
        }
    }
}
