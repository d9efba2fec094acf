import AuthCore
import Crypto
import Outbound
import ProviderKit
import WireFormats

/// A provider's public signing keys (its JWKS), fetched from one URL and cached in memory, chosen by `kid`.
///
/// Providers rotate keys without notice and publish several at once, so a key is chosen by `kid` only. A `kid`
/// outside the cached set triggers one re-fetch, spaced at least `refreshIntervalSeconds` from the previous one
/// (forged key ids cannot turn into a flood of requests), and a `kid` still absent afterwards is never trusted:
/// there is no fallback key. Keys for algorithms the provider does not pin are dropped when the set is read,
/// so the algorithm a token is checked with always comes from the published key and the provider's policy.
/// A failed fetch is a warning in the log saying whether a cached key still served, since every sign-in with
/// the provider may fail until it recovers.
public final class JWKSCache: SigningKeySource {
    /// Where the set is read from.
    public var url: String { document.url }
    private let document: CachedDocument<[String: VerificationKey]>
    private let log: any ProviderLog
    private let fetchFailureMessage: StaticString

    /// - Parameters:
    ///   - algorithms: the algorithms the provider's tokens may use; other keys in the set are ignored.
    ///   - refreshIntervalSeconds: the least time between two fetches; below 1 counts as 1, so the rate limit
    ///     can never be switched off.
    ///   - fetchFailureMessage: the log message for a failed fetch, naming the provider (e.g.
    ///     "apple key fetch failed"), so operators can search for it.
    public init(url: String, algorithms: Set<SignatureAlgorithm>, fetcher: any HTTPFetching, time: any TimeSource,
                refreshIntervalSeconds: Int64, log: any ProviderLog = SilentProviderLog(),
                fetchFailureMessage: StaticString = "jwks fetch failed") {
        self.document = CachedDocument(url: url, fetcher: fetcher, time: time, refreshIntervalSeconds: refreshIntervalSeconds) {
            bytes throws(FetchProblem) in try JWKSDocument.keys(in: bytes, accepting: algorithms)
        }
        self.log = log
        self.fetchFailureMessage = fetchFailureMessage
    }

    public func key(id kid: String) async throws(KeyLookupFailure) -> VerificationKey {
        let lookup = await document.current { $0[kid] != nil }
        let key = lookup.value?[kid]
        if let problem = lookup.fetchFailure, lookup.startedFetch {
            log.warning(fetchFailureMessage, [("reason", .string(problem.reason)), ("cached_key_used", .bool(key != nil)),
                                              ("url", .string(url))])
        }
        if let key { return key }
        throw lookup.lastFetchFailed ? .unavailable : .unknownKey
    }
}

/// Reading a JWKS document (RFC 7517 §5) into the keys a provider may use.
enum JWKSDocument {
    /// The usable keys by `kid`: signature keys (`use` absent or "sig") that Crypto accepts (RSA 2048-8192 bits,
    /// P-256 points on the curve, an `alg` member agreeing with the key type) for one of `algorithms`. Other
    /// entries are skipped, not fatal, because a set may legitimately hold encryption keys or newer key types.
    /// A `kid` published twice names no key at all: which of the two signed would be a guess.
    static func keys(in body: [UInt8], accepting algorithms: Set<SignatureAlgorithm>) throws(FetchProblem)
        -> [String: VerificationKey]
    {
        guard case .object(let document)? = try? JSONParser.parse(body), let entries = document["keys"]?.arrayValue else {
            throw FetchProblem(reason: "not a JWKS")
        }
        var keys: [String: VerificationKey] = [:]
        var ambiguous: Set<String> = []
        for case .object(let entry) in entries {
            guard let kid = entry["kid"]?.stringValue, !kid.isEmpty, let key = usableKey(entry, algorithms) else { continue }
            if keys.updateValue(key, forKey: kid) != nil { ambiguous.insert(kid) }
        }
        for kid in ambiguous { keys[kid] = nil }
        return keys
    }

    private static func usableKey(_ entry: JSONObject, _ algorithms: Set<SignatureAlgorithm>) -> VerificationKey? {
        guard let kty = entry["kty"]?.stringValue, entry["use"].map({ $0 == .string("sig") }) ?? true else { return nil }
        let member = { (name: String) in entry[name]?.stringValue }
        if let alg = entry["alg"], alg.stringValue == nil { return nil }
        let jwk = JWK(kty: kty, kid: member("kid"), alg: member("alg"), n: member("n"), e: member("e"),
                      crv: member("crv"), x: member("x"), y: member("y"))
        guard let key = try? jwk.verificationKey(), algorithms.contains(SignatureAlgorithm(of: key)) else { return nil }
        return key
    }
}
