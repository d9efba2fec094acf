import AuthCore
import Outbound
import Synchronization

/// Why a fetch gave no usable document: a transport error, a status, or an unreadable body. Only ever logged,
/// so it says what an operator needs to look at and never holds a token or a key.
struct FetchProblem: Error, Equatable {
    let reason: String
}

/// A JSON document an identity provider publishes (a JWKS, an OpenID discovery document), kept in memory
/// under the rules every such document shares:
///
/// - it is reused for its `Cache-Control: max-age` (see `CacheLifetime`);
/// - fetches, whether the copy went stale or a caller needs something the copy lacks (a new `kid`), are spaced
///   at least `refreshInterval` apart, so forged key ids cannot make the gateway hammer the provider;
/// - a failed fetch keeps the last good copy: a provider outage must not fail sign-ins with keys already trusted;
/// - callers arriving while a fetch is in flight wait for it instead of failing or fetching again, so a key
///   rotation seen by a burst of sign-ins costs one request and fails none of them.
final class CachedDocument<Value: Sendable>: Sendable {
    /// What a caller gets: the copy to use and what happened to the fetch it waited for, if any.
    struct Lookup {
        /// The copy to use: fresh from this fetch, or the last good one (nil when none was ever fetched).
        var value: Value?
        /// Why the fetch this caller waited for failed.
        var fetchFailure: FetchProblem?
        /// Whether this caller started that fetch (it reports the failure, so one fetch is logged once).
        var startedFetch: Bool
        /// Whether the most recent fetch failed, so a missing entry may just not have been fetched yet.
        var lastFetchFailed: Bool
    }

    private typealias Fetch = Task<Result<Value, FetchProblem>, Never>

    private struct State {
        var value: Value?
        var expiresAt: Int64 = 0
        var lastFetchStart: Int64?
        var lastFetchFailed = false
        var inFlight: Fetch?
    }

    private enum Decision {
        case cached(Value?, lastFetchFailed: Bool)
        case wait(Fetch, previous: Value?, started: Bool)
    }

    let url: String
    private let fetcher: any HTTPFetching
    private let time: any TimeSource
    private let refreshInterval: Int64
    private let parse: @Sendable ([UInt8]) throws(FetchProblem) -> Value
    private let state = Mutex(State())

    /// - Parameters:
    ///   - refreshIntervalSeconds: the least time between two fetches; values below 1 count as 1, so the rate
    ///     limit can never be switched off.
    ///   - parse: turns a 200 body into the document, or says why it is not one.
    init(url: String, fetcher: any HTTPFetching, time: any TimeSource, refreshIntervalSeconds: Int64,
         parse: @escaping @Sendable ([UInt8]) throws(FetchProblem) -> Value) {
        self.url = url
        self.fetcher = fetcher
        self.time = time
        self.refreshInterval = max(1, refreshIntervalSeconds) * 1000
        self.parse = parse
    }

    /// The copy to use. A fresh copy that `isSufficient` is returned as is; otherwise the document is fetched
    /// (or an ongoing fetch awaited) when the rate limit allows, and the best copy known afterwards returned.
    func current(isSufficient: (Value) -> Bool = { _ in true }) async -> Lookup {
        let decision = state.withLock { s -> Decision in
            // Read under the lock, so the decision is made against the clock and the state of one instant.
            let now = time.nowMilliseconds
            if let value = s.value, now < s.expiresAt, isSufficient(value) {
                return .cached(value, lastFetchFailed: false)
            }
            if let fetch = s.inFlight { return .wait(fetch, previous: s.value, started: false) }
            if let last = s.lastFetchStart, now - last < refreshInterval {
                return .cached(s.value, lastFetchFailed: s.lastFetchFailed)
            }
            s.lastFetchStart = now
            let fetch = Fetch { await self.fetchAndStore(startedAt: now) }
            s.inFlight = fetch
            return .wait(fetch, previous: s.value, started: true)
        }
        switch decision {
        case .cached(let value, let failed):
            return Lookup(value: value, fetchFailure: nil, startedFetch: false, lastFetchFailed: failed)
        case .wait(let fetch, let previous, let started):
            switch await fetch.value {
            case .success(let value):
                return Lookup(value: value, fetchFailure: nil, startedFetch: started, lastFetchFailed: false)
            case .failure(let problem):
                return Lookup(value: previous, fetchFailure: problem, startedFetch: started, lastFetchFailed: true)
            }
        }
    }

    private func fetchAndStore(startedAt: Int64) async -> Result<Value, FetchProblem> {
        let result = await fetch()
        state.withLock { s in
            switch result {
            case .success(let (value, lifetime)):
                s.value = value
                s.expiresAt = startedAt + lifetime
                s.lastFetchFailed = false
            case .failure:
                s.lastFetchFailed = true
            }
            s.inFlight = nil
        }
        return result.map(\.0)
    }

    private func fetch() async -> Result<(Value, Int64), FetchProblem> {
        let response: OutboundResponse
        do { response = try await fetcher.send(OutboundRequest(url: url, timeout: .seconds(5))) } catch {
            return .failure(FetchProblem(reason: String("\(error)".prefix(200))))
        }
        guard response.status == 200 else { return .failure(FetchProblem(reason: "HTTP \(response.status)")) }
        do {
            let value = try parse(response.body)
            return .success((value, CacheLifetime.milliseconds(cacheControl: response.header("cache-control"))))
        } catch {
            return .failure(error)
        }
    }
}

/// How long a fetched document is reused.
enum CacheLifetime {
    static let defaultSeconds: Int64 = 3600
    static let bounds: ClosedRange<Int64> = 60...86_400

    /// Honours `Cache-Control: max-age`, bounded to a minute..a day (a provider's `max-age=0` must not mean a
    /// fetch per sign-in, nor a huge one a week of trusting a key it withdrew); an hour when absent.
    static func milliseconds(cacheControl: String?) -> Int64 {
        var seconds = defaultSeconds
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.filter { !$0.isWhitespace }.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "max-age", let value = Int64(parts[1]) { seconds = value }
        }
        return min(max(seconds, bounds.lowerBound), bounds.upperBound) * 1000
    }
}
