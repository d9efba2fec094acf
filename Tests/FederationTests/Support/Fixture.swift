import AuthCore
import Crypto
import Federation
import Testing
import ProviderKit
import Synchronization
import WireFormats

/// A `NonceLedger` in memory that also remembers what it was asked, so tests can check the key and expiry.
final class MemoryLedger: NonceLedger {
    private let seen = Mutex<[[UInt8]: Int64]>([:])
    func consume(_ hash: [UInt8], expiresAt: Int64) async throws -> Bool {
        seen.withLock { $0.updateValue(expiresAt, forKey: hash) == nil }
    }
    func expiry(of hash: [UInt8]) -> Int64? { seen.withLock { $0[hash] } }
}

/// Keeps what the toolkit logs, so tests can assert on warnings.
final class RecordingLog: ProviderLog {
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
}

/// A manual clock that counts how often it is read, so a test can wait until concurrent callers have made
/// their decisions (the cache reads the clock under its lock, at the moment it decides).
final class CountingTime: TimeSource {
    let clock = ManualTime(milliseconds: 1_800_000_000_000)
    private let readCount = Mutex(0)
    var reads: Int { readCount.withLock { $0 } }
    var nowMilliseconds: Int64 {
        readCount.withLock { $0 += 1 }
        return clock.nowMilliseconds
    }
    func advance(seconds: Int64) { clock.advance(seconds: seconds) }
}

/// A verifier for the fake issuer with a policy close to Apple's, plus the pieces tests poke at.
struct Fixture {
    static let audience = "client-a"
    static let provider: ProviderID = "oidc.test"

    let issuer = FakeIssuer()
    let time = CountingTime()
    let ledger = MemoryLedger()
    let log = RecordingLog()
    let keys: JWKSCache
    let verifier: FederatedTokenVerifier
    var now: Int64 { time.clock.nowSeconds }

    init(_ configure: (inout TokenPolicy) -> Void = { _ in }) {
        var policy = TokenPolicy(provider: Self.provider, providerName: "Test IdP", issuers: [FakeIssuer.issuer],
                                 audiences: [Self.audience, "client-b"], algorithms: [.rs256, .es256],
                                 clockSkewSeconds: 60, maxAgeSeconds: 600)
        configure(&policy)
        keys = JWKSCache(url: FakeIssuer.jwksURL, algorithms: policy.algorithms, fetcher: issuer, time: time,
                         refreshIntervalSeconds: 60, log: log)
        verifier = FederatedTokenVerifier(policy: policy, keys: keys, time: time, ledger: ledger)
    }

    static func nonce(_ seed: Int = 0) -> String { "raw-nonce-\(seed)-0123456789abcdef" }

    /// Claims that pass the default policy, bound to `nonce(seed)`.
    func claims(nonce seed: Int = 0) -> JSONObject {
        ["iss": .string(FakeIssuer.issuer), "aud": .string(Self.audience), "sub": "user-1", "iat": .int(now),
         "exp": .int(now + 600), "nonce": .string(SHA256.hexDigest(Self.nonce(seed)))]
    }

    /// Default claims changed by `change`, signed by `key`.
    func token(_ key: TestKey = .rsa, nonce seed: Int = 0, _ change: (inout JSONObject) -> Void = { _ in }) -> String {
        var c = claims(nonce: seed)
        change(&c)
        return key.sign(c)
    }

    /// The refusal a verification ends in (nil when it succeeds).
    func refusal(_ token: String, nonce: String? = Fixture.nonce()) async -> CredentialRefusal? {
        do {
            _ = try await verifier.verify(token, rawNonce: nonce)
            return nil
        } catch let refusal as CredentialRefusal {
            return refusal
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    /// The Firebase message a verification fails with (nil when it succeeds).
    func failure(_ token: String, nonce: String? = Fixture.nonce()) async -> String? {
        await refusal(token, nonce: nonce)?.error.message
    }
}

/// A token with an arbitrary header and signature (alg `none`, HS256 keyed with a public key, …).
func forge(_ claims: JSONObject, header: JSONObject, signature: ([UInt8]) -> [UInt8]) -> String {
    let input = Base64URL.encode(JSONSerializer.bytes(.object(header))) + "." + Base64URL.encode(JSONSerializer.bytes(.object(claims)))
    return input + "." + Base64URL.encode(signature(Array(input.utf8)))
}

/// Yields until `condition` holds: progress is made by other tasks, counted in yields rather than time, and a
/// condition that never comes true fails the test instead of hanging it.
func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
    for _ in 0..<1_000_000 {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("condition never held", sourceLocation: sourceLocation)
}
