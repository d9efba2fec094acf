import Foundation
import AuthCore
import Crypto
import Outbound
import Synchronization
import WireFormats
import ProviderKit

/// Apple's public signing keys (`/auth/keys`), cached in memory.
///
/// Apple rotates keys without notice and the set may hold several at once, so a key is chosen by `kid`. A token
/// naming a `kid` outside the cached set triggers one re-fetch, but re-fetches are spaced at least
/// `refreshInterval` apart so forged key ids cannot make the gateway hammer Apple. A `kid` that is not in the set
/// after the re-fetch is never trusted. Only RSA keys usable for RS256 are kept. A failed fetch is a warning in
/// the log (saying whether a cached key still served), since every Apple sign-in may fail until it recovers.
public final class AppleKeySet: Sendable {
    private struct State {
        var keys: [String: RSAPublicKey] = [:]
        var expiresAt: Int64 = 0
        var lastFetch: Int64?
    }

    private let url: String
    private let fetcher: any HTTPFetching
    private let time: any TimeSource
    private let refreshInterval: Int64
    private let log: any ProviderLog
    private let state = Mutex(State())

    /// - Parameters:
    ///   - baseURL: Apple's host (or a stand-in); keys are read from `<baseURL>/auth/keys`.
    ///   - refreshIntervalSeconds: the least time between two fetches; values below 1 count as 1, so the rate
    ///     limit can never be switched off (configuration refuses them anyway).
    public init(baseURL: String, fetcher: any HTTPFetching, time: any TimeSource, refreshIntervalSeconds: Int64,
                log: any ProviderLog = SilentProviderLog()) {
        self.url = AppleEndpoints.url(baseURL, "/auth/keys")
        self.fetcher = fetcher
        self.time = time
        self.refreshInterval = max(1, refreshIntervalSeconds) * 1000
        self.log = log
    }

    /// Why no key could be returned.
    public enum Failure: Error, Equatable {
        /// The set (fresh from Apple, or re-fetched too recently to ask again) has no key with this id.
        case unknownKey
        /// Apple's key endpoint could not be reached or answered something that is not a JWKS.
        case unavailable
    }

    /// The RS256 key Apple published under `kid`.
    public func key(id kid: String) async throws(Failure) -> RSAPublicKey {
        let now = time.nowMilliseconds
        let (cached, shouldFetch) = state.withLock { s -> (RSAPublicKey?, Bool) in
            let known = s.keys[kid]
            let fresh = now < s.expiresAt
            if known != nil && fresh { return (known, false) }
            let mayFetch = s.lastFetch.map { now - $0 >= refreshInterval } ?? true
            if mayFetch { s.lastFetch = now }
            return (known, mayFetch)
        }
        guard shouldFetch else {
            if let cached { return cached }
            throw .unknownKey
        }
        let keys: [String: RSAPublicKey], lifetime: Int64
        do { (keys, lifetime) = try await fetch() } catch {
            log.warning("apple key fetch failed", [("reason", .string(error.reason)), ("cached_key_used", .bool(cached != nil))])
            // Apple unreachable: a key we already knew stays usable rather than failing every sign-in.
            if let cached { return cached }
            throw .unavailable
        }
        state.withLock { s in
            s.keys = keys
            s.expiresAt = now + lifetime
        }
        guard let key = keys[kid] else { throw .unknownKey }
        return key
    }

    /// Why a fetch gave no key set (for the log: a transport error, a status, or an unreadable body).
    private struct FetchProblem: Error {
        let reason: String
    }

    private func fetch() async throws(FetchProblem) -> ([String: RSAPublicKey], Int64) {
        let response: OutboundResponse
        do { response = try await fetcher.send(OutboundRequest(url: url, timeout: .seconds(5))) } catch {
            throw FetchProblem(reason: String("\(error)".prefix(200)))
        }
        guard response.status == 200 else { throw FetchProblem(reason: "HTTP \(response.status)") }
        guard case .object(let document)? = try? JSONParser.parse(response.body),
              let entries = document["keys"]?.arrayValue
        else { throw FetchProblem(reason: "not a JWKS") }
        var keys: [String: RSAPublicKey] = [:]
        for case .object(let entry) in entries {
            guard let kid = entry["kid"]?.stringValue, entry["kty"]?.stringValue == "RSA",
                  entry["alg"].map({ $0 == .string("RS256") }) ?? true,
                  entry["use"].map({ $0 == .string("sig") }) ?? true
            else { continue }
            let jwk = JWK(kty: "RSA", kid: kid, alg: "RS256", n: entry["n"]?.stringValue, e: entry["e"]?.stringValue)
            if case .rs256(let key)? = try? jwk.verificationKey() { keys[kid] = key }
        }
        return (keys, Self.lifetime(response.header("cache-control")))
    }

    /// Honours `Cache-Control: max-age`, bounded to a minute..a day; an hour when absent.
    static func lifetime(_ cacheControl: String?) -> Int64 {
        var seconds: Int64 = 3600
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "max-age", let value = Int64(parts[1]) { seconds = value }
        }
        return min(max(seconds, 60), 86_400) * 1000
    }
}

/// Apple endpoint URLs under the configured base URL.
enum AppleEndpoints {
    static func url(_ base: String, _ path: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
    }
}
