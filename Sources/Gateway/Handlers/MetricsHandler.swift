import AuthCore
import HTTP
import Storage

/// `GET /metrics`: the Prometheus exposition. Outbox depth comes from the database (so every instance on a
/// shared PostgreSQL reports the shared backlog), keys from this instance's key ring.
enum MetricsHandler {
    static let outboxKinds = [StoredKinds.outboxMessage, StoredKinds.outboxRevocation]

    static func scrape(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let depth = try await services.store.read { tx in
            Dictionary(uniqueKeysWithValues: try outboxKinds.map { ($0, try tx.outboxItems(kind: $0).count) })
        }
        let now = services.time.nowSeconds
        let text = services.metrics.exposition(
            outboxDepth: depth, keys: services.keyRing.publishedKeys(at: now).map(\.record),
            activeKid: services.keyRing.signingKey(at: now)?.record.kid, now: now)
        var headers = HTTPHeaders()
        headers.add("Content-Type", PrometheusText.contentType)
        headers.add("Cache-Control", "no-store")
        return .response(HTTPResponse(status: 200, headers: headers, body: Array(text.utf8)))
    }
}
