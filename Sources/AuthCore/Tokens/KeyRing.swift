import Crypto
import Synchronization

/// The token-signing keys currently known, unsealed and ready to use.
///
/// Which key signs and which keys are published are pure functions of the records and the time, so every
/// instance sharing a database makes the same choice without coordination.
public final class KeyRing: Sendable {
    public struct Key: Sendable {
        public let record: SigningKeyRecord
        public let privateKey: RSAPrivateKey
        public let publicKey: RSAPublicKey
    }

    private let keys = Mutex<[Key]>([])

    public init() {}

    /// Replaces the ring's keys with `records`, unsealing each private key with `sealer`.
    /// Keys already unsealed are reused (unsealing and PEM parsing are not free).
    public func load(_ records: [SigningKeyRecord], sealer: Sealer) throws {
        let known = Dictionary(keys.withLock { $0 }.map { ($0.record.kid, $0) }, uniquingKeysWith: { a, _ in a })
        var loaded: [Key] = []
        for record in records {
            if let existing = known[record.kid], existing.record.sealedPrivateKey == record.sealedPrivateKey {
                loaded.append(Key(record: record, privateKey: existing.privateKey, publicKey: existing.publicKey))
                continue
            }
            let pem = try sealer.open(record.sealedPrivateKey, purpose: SigningKeys.sealingPurpose)
            let privateKey = try RSAPrivateKey(pem: String(decoding: pem, as: UTF8.self))
            loaded.append(Key(record: record, privateKey: privateKey, publicKey: privateKey.publicKey))
        }
        keys.withLock { $0 = loaded }
    }

    /// The key that signs new tokens at `now` (seconds): the most recently activated one.
    public func signingKey(at now: Int64) -> Key? {
        SigningKeys.latestActive(keys.withLock { $0 }, at: now, record: \.record)
    }

    /// Keys verifiers must know at `now`: every key not yet unpublished, including one that will activate later.
    public func publishedKeys(at now: Int64) -> [Key] {
        keys.withLock { $0 }.filter { SigningKeys.isPublished($0.record, at: now) }
    }

    /// A published key by id (the only keys our own verifier trusts).
    public func verificationKey(kid: String, at now: Int64) -> Key? {
        // Asked on every authenticated request: no filtered copy of the ring.
        keys.withLock { $0 }.first { $0.record.kid == kid && SigningKeys.isPublished($0.record, at: now) }
    }

    public var count: Int { keys.withLock { $0.count } }
}

/// Pure rules for key activation, publication and rotation.
public enum SigningKeys {
    public static let sealingPurpose = "gatehouse.signing-key.v1"

    /// The kid that signs at `now`: among keys activated by `now` and still published, the latest activation.
    public static func active(_ records: [SigningKeyRecord], at now: Int64) -> String? {
        latestActive(records, at: now, record: { $0 })?.kid
    }

    /// The element whose record `active` would choose, found in one pass without copying (the ring asks for every
    /// token it signs).
    static func latestActive<Items: Sequence>(
        _ items: Items, at now: Int64, record: (Items.Element) -> SigningKeyRecord
    ) -> Items.Element? {
        var latest: (item: Items.Element, record: SigningKeyRecord)?
        for item in items {
            let candidate = record(item)
            guard candidate.activatesAt <= now, isPublished(candidate, at: now) else { continue }
            if let current = latest?.record,
               !((current.activatesAt, current.createdAt, current.kid) < (candidate.activatesAt, candidate.createdAt, candidate.kid)) {
                continue
            }
            latest = (item, candidate)
        }
        return latest?.item
    }

    public static func isPublished(_ record: SigningKeyRecord, at now: Int64) -> Bool {
        record.unpublishAt.map { now < $0 } ?? true
    }

    /// How often every instance reloads the keys from the store (milliseconds): a quarter of the key-cache
    /// max-age, at most a minute, at least 250 ms.
    public static func reloadIntervalMilliseconds(keyCacheMaxAge: Int64) -> Int64 {
        max(250, min(60_000, keyCacheMaxAge * 1000 / 4))
    }

    /// Seconds between rotating a key in and its first signature: one key-cache max-age plus one reload
    /// interval (rounded up). The reload interval matters with several instances: one that has not reloaded
    /// yet still publishes the old set for up to an interval after the rotation, and a verifier that fetched
    /// from it then caches that set for a full max-age. Every such cache has expired before the key signs.
    public static func activationDelay(keyCacheMaxAge: Int64) -> Int64 {
        keyCacheMaxAge + (reloadIntervalMilliseconds(keyCacheMaxAge: keyCacheMaxAge) + 999) / 1000
    }

    /// The records after rotating in `newKey` at `now`: the new key is published at once and activates one
    /// `activationDelay` later (verifiers that cached the key set, from any instance, have refetched by
    /// then); every older key stays published until the last token it can still sign has expired.
    public static func rotate(
        _ records: [SigningKeyRecord], adding newKey: SigningKeyRecord, now: Int64,
        keyCacheMaxAge: Int64, tokenLifetime: Int64
    ) -> (updated: [SigningKeyRecord], inserted: SigningKeyRecord) {
        var inserted = newKey
        inserted.activatesAt = now + activationDelay(keyCacheMaxAge: keyCacheMaxAge)
        inserted.unpublishAt = nil
        // Tokens signed by an older key until the new one activates stay valid for one lifetime after that,
        // plus a small allowance for clock skew between instances.
        let retireAt = inserted.activatesAt + tokenLifetime + 300
        let updated = records.compactMap { record -> SigningKeyRecord? in
            guard record.unpublishAt == nil || record.unpublishAt! > retireAt else { return nil }
            var changed = record
            changed.unpublishAt = retireAt
            return changed
        }
        return (updated, inserted)
    }
}
