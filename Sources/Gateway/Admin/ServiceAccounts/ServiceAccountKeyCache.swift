import Crypto
import Synchronization

/// Parsed service-account public keys, by the exact PEM text they were parsed from.
///
/// Why: a custom-token sign-in or a JWT-bearer grant verifies against the account's key, and parsing its
/// certificate (PEM → DER → X.509 → SubjectPublicKeyInfo → `EVP_PKEY`) and building the key's verification
/// contexts cost about 45 % of a custom-token sign-in's CPU (profile of `bench/endpoints.py`: 944 µs per request,
/// against ~330 µs for a sign-up that also signs one token).
///
/// What it changes is only work, not trust: a PEM's key is a pure function of its text, so the same text always
/// gives the same key. The account, and with it the list of PEMs it trusts, is still read from the store on every
/// use (`ServiceAccountRegistry`), so removing an account or a key takes effect at once, on every instance; a key
/// that is no longer listed is never looked up, whether or not it is still cached. Text that does not parse is not
/// remembered.
final class ServiceAccountKeyCache: Sendable {
    /// Projects have a handful of service accounts with one or two keys each; past this many distinct PEMs the
    /// cache starts over (correct, only slower).
    let capacity: Int
    private let keys = Mutex<[String: RSAPublicKey]>([:])

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// The process's cache, used by `ServiceAccount.verificationKeys`.
    static let shared = ServiceAccountKeyCache()

    /// The key `pem` holds, parsed once: the same object on every call for the same text while it is cached.
    func publicKey(_ pem: String, parse: (String) -> RSAPublicKey?) -> RSAPublicKey? {
        if let known = keys.withLock({ $0[pem] }) { return known }
        guard let parsed = parse(pem) else { return nil }
        return keys.withLock { cached in
            if let raced = cached[pem] { return raced }
            if cached.count >= capacity { cached.removeAll(keepingCapacity: true) }
            cached[pem] = parsed
            return parsed
        }
    }

    /// PEMs remembered (for tests).
    var count: Int { keys.withLock { $0.count } }
}
