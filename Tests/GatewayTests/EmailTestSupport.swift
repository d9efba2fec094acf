import AuthCore
import Crypto
import Dispatch
import Foundation
import Outbound
import ProviderEmail
import Storage
import Synchronization
@testable import Gateway
import WireFormats

/// A cheap scrypt that counts KDF runs, so tests can assert how much hashing work a request caused.
final class CountingHasher: PasswordHashing {
    let inner: ScryptPasswordHasher
    private let counts = Mutex((hashes: 0, verifies: 0))
    private let threadNames = Mutex<Set<String>>([])

    /// Names of the threads the KDF ran on.
    var threads: Set<String> { threadNames.withLock { $0 } }
    private func noteThread() { let name = WorkerPool.currentPoolName ?? "not a worker pool"; threadNames.withLock { _ = $0.insert(name) } }

    init(n: UInt64 = 16) { inner = ScryptPasswordHasher(parameters: .init(n: n, r: 1, p: 1)) }

    var hashes: Int { counts.withLock { $0.hashes } }
    var verifies: Int { counts.withLock { $0.verifies } }

    func hash(_ password: String) throws -> PasswordCredential {
        counts.withLock { $0.hashes += 1 }
        noteThread()
        return try inner.hash(password)
    }
    func verify(_ password: String, against credential: PasswordCredential) -> Bool {
        counts.withLock { $0.verifies += 1 }
        noteThread()
        return inner.verify(password, against: credential)
    }
    func needsRehash(_ credential: PasswordCredential) -> Bool { inner.needsRehash(credential) }
    func decoyCredential() -> PasswordCredential { inner.decoyCredential() }
}

/// Captures mail instead of sending it; can be switched to fail like an unreachable server.
final class CapturingMailer: MailSending {
    private let state = Mutex((sent: [MailMessage](), failing: false))

    var sent: [MailMessage] { state.withLock { $0.sent } }
    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    func send(_ message: MailMessage) throws(SMTPError) {
        let failing = state.withLock { $0.failing }
        if failing { throw SMTPError.unreachable("connection refused") }
        state.withLock { $0.sent.append(message) }
    }
}

extension TestGateway {
    /// A gateway with a cheap counting hasher and a capturing mailer (SMTP "configured").
    /// With `store`, the gateway joins a store another test gateway uses (another instance); the store must
    /// already hold `SharedSigningKey.record`.
    static func withEmail(store shared: (any UserStore)? = nil, hasher: CountingHasher = CountingHasher(),
                          mailer: CapturingMailer = CapturingMailer(),
                          _ configure: @escaping (inout GatewayConfiguration) -> Void = { _ in }) async throws -> TestGateway {
        let store = shared ?? InMemoryUserStore()
        if shared == nil { try await store.write { tx in try tx.insertSigningKey(SharedSigningKey.record) } }
        return try await make(store: store, masterKey: SharedSigningKey.masterKey,
                              factories: factories(email: EmailProviderFactory(hasher: hasher, mailer: mailer))) { config in
            config.setPluginValue("email.smtp", ["url": "smtp://127.0.0.1:1", "security": "none",
                                                 "from": "noreply@example.com"])
            config.publicURL = "https://auth.example.com"
            configure(&config)
        }
    }

    func signUp(_ email: String, _ password: String, idToken: String? = nil) async -> Reply {
        var body: JSONObject = ["email": .string(email), "password": .string(password), "returnSecureToken": true]
        body.set("idToken", idToken)
        return await post("\(Self.v1)/accounts:signUp", .object(body))
    }

    func signIn(_ email: String, _ password: String) async -> Reply {
        await post("\(Self.v1)/accounts:signInWithPassword",
                   ["email": .string(email), "password": .string(password), "returnSecureToken": true])
    }

    func update(_ body: JSONObject) async -> Reply {
        await post("\(Self.v1)/accounts:update", .object(body))
    }

    func sendOobCode(_ body: JSONObject, headers: [(String, String)] = []) async -> Reply {
        await post("\(Self.v1)/accounts:sendOobCode", .object(body), headers: headers)
    }

    /// The `oobCode` query parameter of the action link in a message.
    static func oobCode(in message: MailMessage) -> String? {
        guard let range = message.text.range(of: "oobCode=") else { return nil }
        return String(message.text[range.upperBound...].prefix { $0 != "&" && !$0.isWhitespace })
    }
}

/// A hasher whose verifications wait until the test lets them go, to fill the KDF pool on purpose.
final class GatedHasher: PasswordHashing {
    let inner = ScryptPasswordHasher(parameters: .init(n: 16, r: 1, p: 1))
    private let gate = DispatchSemaphore(value: 0)
    private let entered = Mutex(0)

    var verificationsStarted: Int { entered.withLock { $0 } }
    func open(_ count: Int) { for _ in 0..<count { gate.signal() } }

    func hash(_ password: String) throws -> PasswordCredential { try inner.hash(password) }
    func verify(_ password: String, against credential: PasswordCredential) -> Bool {
        entered.withLock { $0 += 1 }
        gate.wait()
        return inner.verify(password, against: credential)
    }
    func needsRehash(_ credential: PasswordCredential) -> Bool { inner.needsRehash(credential) }
    func decoyCredential() -> PasswordCredential { inner.decoyCredential() }
}

/// One RSA signing key for all email tests: generating a 2048-bit key per test gateway costs more CPU than
/// the tests themselves, and the tests are about email, not key generation.
enum SharedSigningKey {
    static let masterKey = SymmetricKey.generate()
    static let record: SigningKeyRecord = {
        let service = SigningKeyService(store: InMemoryUserStore(), sealer: Sealer(masterKey: masterKey),
                                        settings: GatewayConfiguration().tokenSettings,
                                        time: ManualTime(milliseconds: 1_800_000_000_000))
        // A key that cannot be generated means the test run cannot work at all.
        return try! service.makeKey(activatesAt: 0)
    }()
}
