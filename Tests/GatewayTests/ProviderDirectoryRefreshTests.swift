import AuthCore
import OIDCTestSupport
import Storage
import Synchronization
import Testing
@testable import Gateway
import WireFormats

/// A store whose next read, once armed, returns its (already taken) snapshot only when released: a refresh
/// that read before a change can be made to finish after one that read after it.
final class HeldReadStore: UserStore {
    let inner: any UserStore
    private let gate = Mutex<(armed: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))

    init(_ inner: any UserStore) { self.inner = inner }

    func armNextRead() { gate.withLock { $0.armed = true } }
    var isHolding: Bool { gate.withLock { $0.waiting != nil } }
    func release() { gate.withLock { state in defer { state.waiting = nil }; return state.waiting }?.resume() }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        let result = try await inner.read(body)
        let hold = gate.withLock { state in defer { state.armed = false }; return state.armed }
        if hold { await withCheckedContinuation { continuation in gate.withLock { $0.waiting = continuation } } }
        return result
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await inner.write(body)
    }

    func close() async throws { try await inner.close() }
}

@Suite("Provider directory refreshes")
struct ProviderDirectoryRefreshTests {
    @Test("a refresh that read before an admin change never puts back the registry without it")
    func olderRefreshLoses() async throws {
        let idp = FakeOIDCIssuer(base: "https://late.test", clientId: "late-client")
        let store = HeldReadStore(InMemoryUserStore())
        let gw = try await TestGateway.make(store: store, fetcher: IssuerRouter(issuers: [idp]))
        store.armNextRead()
        let slow = Task { try await gw.app.services.providers.refresh(from: store) }
        while !store.isHolding { await Task.yield() }
        let created = await gw.createIdpConfig("oidc.late", ["clientId": "late-client", "issuer": "https://late.test", "enabled": true])
        #expect(created.status == 200)
        store.release()
        _ = try await slow.value
        let token = FakeOIDCIssuer.sign(idp.claims(now: gw.time.nowSeconds))
        #expect(await gw.signInWithOIDC("oidc.late", token: token).status == 200)
    }
}
