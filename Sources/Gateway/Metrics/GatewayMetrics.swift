import AuthCore
import Synchronization

/// The gateway's metrics: what happened (counters and histograms, recorded as requests run) and what is
/// (gauges read at scrape time: connections, outbox depth, worker-pool queues, signing keys). Names follow
/// Prometheus conventions: `gatehouse_` prefix, base units (seconds), `_total` for counters.
final class GatewayMetrics: Sendable {
    static let requests = MetricFamily.counter(
        "gatehouse_http_requests_total", "HTTP requests answered, by operation and status code.", labels: ["operation", "status"])
    static let requestDuration = MetricFamily.histogram(
        "gatehouse_http_request_duration_seconds", "Time from a complete request to its response, by operation.",
        labels: ["operation"])
    static let signIns = MetricFamily.counter(
        "gatehouse_sign_ins_total", "Sessions started for existing users, by provider.", labels: ["provider"])
    static let signUps = MetricFamily.counter(
        "gatehouse_sign_ups_total", "Users created by signing up or in for the first time, by provider.", labels: ["provider"])
    static let refusals = MetricFamily.counter(
        "gatehouse_refusals_total", "Requests refused with a Firebase error, by operation and error code.",
        labels: ["operation", "code"])
    static let credentialRefusals = MetricFamily.counter(
        "gatehouse_credential_refusals_total", "Provider credentials refused, by provider and the check that failed.",
        labels: ["provider", "check"])
    static let outboxAttempts = MetricFamily.counter(
        "gatehouse_outbox_attempts_total", "Outbox deliveries attempted (mail and codes, provider revocations), by outcome.",
        labels: ["kind", "outcome"])
    static let storeTransactions = MetricFamily.histogram(
        "gatehouse_store_transaction_duration_seconds", "Database transactions from request to commit, by kind.",
        labels: ["kind"])

    // Gauges and pool statistics, read when scraped.
    static let openConnections = MetricFamily.gauge("gatehouse_open_connections", "Open client connections.")
    static let outboxDepth = MetricFamily.gauge(
        "gatehouse_outbox_items", "Items waiting in the outbox (due or backing off), by kind.", labels: ["kind"])
    static let poolQueued = MetricFamily.gauge(
        "gatehouse_worker_pool_queued_jobs", "Jobs waiting for a thread, by pool (kdf: password hashing).", labels: ["pool"])
    static let poolWaitSeconds = MetricFamily.counter(
        "gatehouse_worker_pool_wait_seconds_total", "Seconds jobs spent waiting for a thread, by pool.", labels: ["pool"])
    static let poolJobs = MetricFamily.counter(
        "gatehouse_worker_pool_jobs_total", "Jobs started, by pool.", labels: ["pool"])
    static let signingKeyAge = MetricFamily.gauge(
        "gatehouse_signing_key_age_seconds", "Age of each published signing key; active=1 for the one that signs now.",
        labels: ["kid", "active"])
    static let startTime = MetricFamily.gauge(
        "gatehouse_process_start_time_seconds", "When this gateway process started, in seconds since the epoch.")

    let recorded = MetricsRegistry()
    let startedAt: Int64
    /// In a struct, not as a bare closure: a closure kept directly in the generic `Mutex` is stored at its most
    /// general abstraction, and every `withLock` that handed it out as `inout` wrapped it in two more conversion
    /// thunks and stored that back. Each scrape made the next one call through two more layers: after 40,000
    /// scrapes a scrape took twice as long, and the chain, a nested call per layer, only ever grew.
    private struct ConnectionCounter: Sendable {
        let count: @Sendable () -> Int
    }
    private let connectionCount = Mutex<ConnectionCounter?>(nil)

    init(startedAt: Int64) {
        self.startedAt = startedAt
    }

    /// Where open connections are counted (the HTTP server, once it runs).
    func countConnections(with count: @escaping @Sendable () -> Int) {
        connectionCount.withLock { $0 = ConnectionCounter(count: count) }
    }

    func requestAnswered(operation: String, status: Int, seconds: Double, errorCode: String?) {
        recorded.increment(Self.requests, [operation, String(status)], observe: Self.requestDuration, [operation],
                           seconds: seconds)
        if let errorCode, status < 500 { recorded.increment(Self.refusals, [operation, errorCode]) }
    }

    func sessionStarted(_ outcome: SessionOutcome) {
        switch outcome {
        case .signIn(let provider): recorded.increment(Self.signIns, [provider])
        case .signUp(let provider): recorded.increment(Self.signUps, [provider])
        }
    }

    func credentialRefused(provider: String, check: String) {
        recorded.increment(Self.credentialRefusals, [provider, check])
    }

    func outboxAttempted(kind: String, outcome: OutboxAttempt) {
        let label: String
        switch outcome {
        case .done: label = "delivered"
        case .retry: label = "retry"
        case .abandon: label = "abandoned"
        }
        recorded.increment(Self.outboxAttempts, [kind, label])
    }

    func transactionFinished(kind: String, seconds: Double) {
        recorded.observe(Self.storeTransactions, [kind], seconds: seconds)
    }

    /// The whole exposition: recorded series plus the gauges read now.
    func exposition(outboxDepth: [String: Int], keys: [SigningKeyRecord], activeKid: String?, now: Int64) -> String {
        var families = recorded.samples()
        families[Self.openConnections] = [([], .number(Double(connectionCount.withLock { $0 }?.count() ?? 0)))]
        families[Self.outboxDepth] = outboxDepth.map { ([$0.key], .number(Double($0.value))) }
        // Pools are summed by name: a process may hold several of one kind (tests, a store reopened).
        var queued: [String: Double] = [:], waited: [String: Double] = [:], jobs: [String: Double] = [:]
        for pool in WorkerPool.live {
            let statistics = pool.waitStatistics
            queued[pool.name, default: 0] += Double(pool.queuedJobs)
            waited[pool.name, default: 0] += statistics.seconds
            jobs[pool.name, default: 0] += Double(statistics.jobs)
        }
        families[Self.poolQueued] = queued.map { ([$0.key], .number($0.value)) }
        families[Self.poolWaitSeconds] = waited.map { ([$0.key], .number($0.value)) }
        families[Self.poolJobs] = jobs.map { ([$0.key], .number($0.value)) }
        families[Self.signingKeyAge] = keys.map {
            ([$0.kid, $0.kid == activeKid ? "1" : "0"], .number(Double(max(0, now - $0.createdAt))))
        }
        families[Self.startTime] = [([], .number(Double(startedAt)))]
        return PrometheusText.render(families.map { ($0.key, $0.value) })
    }
}
