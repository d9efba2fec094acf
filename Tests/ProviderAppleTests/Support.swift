import AppleTestSupport
import AuthCore
import Crypto
import Outbound
import ProviderApple
import Synchronization
import ProviderKit

/// A `NonceLedger` in memory (the gateway's durable one is tested in GatewayTests).
final class MemoryLedger: NonceLedger {
    private let seen = Mutex(Set<[UInt8]>())
    func consume(_ hash: [UInt8], expiresAt: Int64) async throws -> Bool { seen.withLock { $0.insert(hash).inserted } }
}

/// Keeps what a provider logs, so tests can assert on warnings (and that no secret is in them).
final class RecordingProviderLog: ProviderLog {
    struct Line: Sendable {
        let level: ProviderLogLevel
        let message: String
        let details: [String: ProviderLogValue]
    }

    private let recorded = Mutex<[Line]>([])
    var lines: [Line] { recorded.withLock { $0 } }

    func record(_ level: ProviderLogLevel, _ message: StaticString, _ details: [(String, ProviderLogValue)]) {
        let line = Line(level: level, message: "\(message)", details: Dictionary(details, uniquingKeysWith: { $1 }))
        recorded.withLock { $0.append(line) }
    }

    func warnings(_ message: String) -> [Line] { lines.filter { $0.level == .warning && $0.message == message } }
}

/// A provider wired to a fresh stand-in and a manual clock.
struct AppleFixture {
    let apple = FakeApple()
    let time = ManualTime(milliseconds: 1_800_000_000_000)
    let log = RecordingProviderLog()
    let provider: AppleProvider
    var now: Int64 { time.nowSeconds }

    init(withKey: Bool = true, enabled: Bool = true, _ configure: (inout AppleConfiguration) -> Void = { _ in }) throws {
        let ids = FakeApple.configuration(withKey: withKey)
        var configuration = AppleConfiguration(enabled: enabled, bundleIds: ids.bundleIds, servicesIds: ids.servicesIds,
                                               teamId: ids.teamId, keyId: ids.keyId, privateKeyPEM: ids.pem,
                                               baseURL: FakeApple.baseURL)
        configure(&configuration)
        provider = try AppleProvider(configuration: configuration, fetcher: apple, ledger: MemoryLedger(), time: time, log: log)
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

    /// The Firebase error message a sign-in fails with (what the client sees), or nil when it succeeds.
    func failure(_ token: String, nonce: String? = AppleFixture.nonce()) async -> String? {
        do {
            _ = try await signIn(token, nonce: nonce)
            return nil
        } catch let refusal as CredentialRefusal {
            return refusal.error.message
        } catch let error as AuthError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    /// The check a sign-in was refused at (what the gateway logs), or nil when it succeeds or fails otherwise.
    func refusedCheck(_ token: String, nonce: String? = AppleFixture.nonce()) async -> CredentialCheck? {
        do {
            _ = try await signIn(token, nonce: nonce)
            return nil
        } catch let refusal as CredentialRefusal {
            return refusal.provider == .apple ? refusal.check : nil
        } catch {
            return nil
        }
    }
}
