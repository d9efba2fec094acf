import AppleTestSupport
import AuthCore
import Crypto
import Outbound
import ProviderApple
import Synchronization

/// A `NonceLedger` in memory (the gateway's durable one is tested in GatewayTests).
final class MemoryLedger: NonceLedger {
    private let seen = Mutex(Set<[UInt8]>())
    func consume(_ hash: [UInt8], expiresAt: Int64) async throws -> Bool { seen.withLock { $0.insert(hash).inserted } }
}

/// A provider wired to a fresh stand-in and a manual clock.
struct AppleFixture {
    let apple = FakeApple()
    let time = ManualTime(milliseconds: 1_800_000_000_000)
    let provider: AppleProvider
    var now: Int64 { time.nowSeconds }

    init(withKey: Bool = true, enabled: Bool = true, _ configure: (inout AppleConfiguration) -> Void = { _ in }) throws {
        let ids = FakeApple.configuration(withKey: withKey)
        var configuration = AppleConfiguration(enabled: enabled, bundleIds: ids.bundleIds, servicesIds: ids.servicesIds,
                                               teamId: ids.teamId, keyId: ids.keyId, privateKeyPEM: ids.pem,
                                               baseURL: FakeApple.baseURL)
        configure(&configuration)
        provider = try AppleProvider(configuration: configuration, fetcher: apple, ledger: MemoryLedger(), time: time)
    }

    static func nonce(_ seed: Int = 0) -> String { "raw-nonce-\(seed)-0123456789abcdef" }

    func signIn(_ token: String, nonce: String? = AppleFixture.nonce(), code: String? = nil,
                user: String? = nil) async throws -> VerifiedIdentity {
        var parameters = ["providerId": "apple.com", "id_token": token]
        parameters["nonce"] = nonce
        parameters["code"] = code
        parameters["user"] = user
        return try await provider.verify(ProviderAssertion(parameters: parameters, requestUri: "http://localhost"),
                                         context: RequestContext(clientAddress: "127.0.0.1", receivedAt: 0, projectId: "p"))
    }

    /// The Firebase error message a sign-in fails with, or nil when it succeeds.
    func failure(_ token: String, nonce: String? = AppleFixture.nonce()) async -> String? {
        do {
            _ = try await signIn(token, nonce: nonce)
            return nil
        } catch let error as AuthError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }
}
