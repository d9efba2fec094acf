import WireFormats
import AuthCore
import Crypto
import Storage

/// Proves at start that this instance's master key is the one the database's secrets are sealed with, so a
/// misconfigured instance refuses to start with a clear message instead of failing later (on a key reload,
/// a queued mail, a provider secret).
///
/// The database holds one probe sealed under the key that first used it. It lives in the one-time-token
/// table (kind `master-key-check`, never expiring) because that table's unique constraint lets exactly one
/// of several instances starting together record its probe; the others then check theirs against it.
enum MasterKeyCheck {
    struct Mismatch: Error, CustomStringConvertible {
        let location: String

        var description: String {
            "the master key does not open the secrets in \(location): they were sealed with another master key. Give every instance the key that belongs to this database (GATEHOUSE_MASTER_KEY)"
        }
    }

    static let kind = "master-key-check"
    static let purpose = "gatehouse.master-key-check.v1"
    static let tokenHash = Array("master-key-check".utf8)

    static func verify(store: any UserStore, sealer: Sealer, time: any TimeSource, location: String) async throws {
        if let probe = try await store.read({ tx in try tx.oneTimeToken(kind: kind, hash: tokenHash) }) {
            guard opens(probe, sealer) else { throw Mismatch(location: location) }
            return
        }
        let probe = OneTimeTokenRecord(
            kind: kind, tokenHash: tokenHash,
            payload: JSONSerializer.string(["sealed": .string(Base64.encode(try sealer.seal(SecureRandom.bytes(count: 16), purpose: purpose)))]),
            createdAt: time.nowMilliseconds, expiresAt: Int64.max)
        do {
            try await store.write { tx in
                // A database that holds keys from before this check: record the probe only if the key opens them.
                if let key = try tx.signingKeys().first {
                    guard (try? sealer.open(key.sealedPrivateKey, purpose: SigningKeys.sealingPurpose)) != nil else {
                        throw Mismatch(location: location)
                    }
                }
                try tx.insertOneTimeToken(probe)
            }
        } catch StoreError.uniqueViolation(.oneTimeToken) {
            // Another instance recorded its probe first: ours must open it.
            try await verify(store: store, sealer: sealer, time: time, location: location)
        }
    }

    private static func opens(_ probe: OneTimeTokenRecord, _ sealer: Sealer) -> Bool {
        guard let text = (try? JSONParser.parse(Array(probe.payload.utf8)))?["sealed"]?.stringValue,
              let sealed = Base64.decode(text) else { return false }
        return (try? sealer.open(sealed, purpose: purpose)) != nil
    }
}
