import Dispatch
import Storage

/// A store that times every transaction, from the request for it to its commit (queueing for the writer
/// included, which is what a request waits for), for `gatehouse_store_transaction_duration_seconds`.
struct MeasuredUserStore: UserStore {
    let base: any UserStore
    let metrics: GatewayMetrics

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        let started = DispatchTime.now().uptimeNanoseconds
        defer { metrics.transactionFinished(kind: "write", seconds: Self.seconds(since: started)) }
        return try await base.write(body)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        let started = DispatchTime.now().uptimeNanoseconds
        defer { metrics.transactionFinished(kind: "read", seconds: Self.seconds(since: started)) }
        return try await base.read(body)
    }

    func close() async throws { try await base.close() }

    private static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
    }
}
