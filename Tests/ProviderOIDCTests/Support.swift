import AuthCore
import Crypto
import OIDCTestSupport
import ProviderKit
@testable import ProviderOIDC
import Synchronization
import Testing
import WireFormats

/// A `NonceLedger` in memory (the gateway's durable one is tested in GatewayTests).
final class MemoryLedger: NonceLedger {
    private let seen = Mutex(Set<[UInt8]>())
    func consume(_ hash: [UInt8], expiresAt: Int64) async throws -> Bool { seen.withLock { $0.insert(hash).inserted } }
}

/// Keeps what a provider logs, so tests can assert on warnings.
final class RecordingProviderLog: ProviderLog {
    private let recorded = Mutex<[(ProviderLogLevel, String)]>([])
    func record(_ level: ProviderLogLevel, _ message: StaticString, _ details: [(String, ProviderLogValue)]) {
        recorded.withLock { $0.append((level, "\(message)")) }
    }
    func warnings(_ message: String) -> Int { recorded.withLock { $0.filter { $0.0 == .warning && $0.1 == message }.count } }
}

/// A generic provider (`oidc.test`) wired to a fresh stand-in issuer and a manual clock.
struct OIDCFixture {
    let issuer = FakeOIDCIssuer()
    let time = ManualTime(milliseconds: 1_800_000_000_000)
    let log = RecordingProviderLog()
    let provider: OIDCProvider
    var now: Int64 { time.nowSeconds }

    init(_ configure: (inout OIDCProviderSettings) -> Void = { _ in }) {
        var settings = OIDCProviderSettings(providerId: "oidc.test", displayName: "Test IdP", issuer: issuer.base,
                                            clientIds: [issuer.clientId, "ios-client"], clientSecret: issuer.clientSecret)
        configure(&settings)
        provider = OIDCProvider(settings: settings, fetcher: issuer, ledger: MemoryLedger(), time: time, log: log)
    }

    static let context = RequestContext(clientAddress: "127.0.0.1", receivedAt: 0, projectId: "p")

    func signIn(_ parameters: [String: String]) async throws -> VerifiedIdentity {
        try await provider.verify(ProviderAssertion(parameters: parameters, requestUri: "http://localhost"), context: Self.context)
    }

    func signIn(idToken: String, nonce: String? = nil) async throws -> VerifiedIdentity {
        var parameters = ["providerId": "oidc.test", "id_token": idToken]
        parameters["nonce"] = nonce
        return try await signIn(parameters)
    }

    /// The check that refused, or nil when the credential was accepted.
    func refusedCheck(_ attempt: () async throws -> VerifiedIdentity) async -> CredentialCheck? {
        do { _ = try await attempt(); return nil } catch let refusal as CredentialRefusal { return refusal.check } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    func refusal(_ attempt: () async throws -> VerifiedIdentity) async -> CredentialRefusal? {
        do { _ = try await attempt(); return nil } catch { return error as? CredentialRefusal }
    }
}

enum Nonces {
    static func fresh() -> String { "nonce-" + SecureRandom.token(byteCount: 16) }
}
