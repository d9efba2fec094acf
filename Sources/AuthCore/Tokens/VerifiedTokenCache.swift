import Crypto
import Synchronization

/// The results of ID-token checks already passed, by SHA-256 of the exact token text, so a client that sends
/// the same token for an hour costs one RSA verification and one claims parse, not one per request.
///
/// What it remembers is only what cannot change for a given token: its signature was valid under a key, and its
/// claims (issuer, audience, subject, times) parsed and matched. Everything that can change is checked again on
/// every hit by `IDTokenSigner.verify`: that the key is still published and is the same key object (rotation or a
/// reload), and the time checks (expiry). The user's row, and with it revocation, disabling and deletion, is read
/// by the caller on every request as before. Only tokens that passed are stored, so garbage cannot fill it, and
/// a lookup compares digests, never token bytes.
///
/// Bounded by two generations: entries go into the newer one; when it is full it becomes the older one and the
/// previous older one is dropped. A hit in the older generation moves the entry forward. At most `capacity`
/// entries are kept.
public final class VerifiedTokenCache: Sendable {
    struct Entry: Sendable {
        let verified: IDTokenSigner.Verified
        let kid: String
        let key: RSAPublicKey
    }

    private struct Generations {
        var newer: [[UInt8]: Entry] = [:]
        var older: [[UInt8]: Entry] = [:]
    }

    /// The most tokens remembered (both generations together).
    public let capacity: Int
    private let generations = Mutex(Generations())

    /// `capacity` 0 turns the cache off.
    public init(capacity: Int = 8192) {
        self.capacity = max(0, capacity)
    }

    func entry(for digest: [UInt8]) -> Entry? {
        guard capacity > 0 else { return nil }
        return generations.withLock { state in
            if let entry = state.newer[digest] { return entry }
            guard let entry = state.older.removeValue(forKey: digest) else { return nil }
            insert(entry, for: digest, into: &state)
            return entry
        }
    }

    func store(_ entry: Entry, for digest: [UInt8]) {
        guard capacity > 0 else { return }
        generations.withLock { insert(entry, for: digest, into: &$0) }
    }

    private func insert(_ entry: Entry, for digest: [UInt8], into state: inout Generations) {
        if state.newer.count >= max(1, capacity / 2) {
            state.older = state.newer
            state.newer = [:]
        }
        state.newer[digest] = entry
    }

    /// Tokens remembered now (for tests).
    public var count: Int {
        generations.withLock { $0.newer.count + $0.older.count }
    }
}
