import AuthCore
import Crypto
import Outbound
import ProviderFacebook
import ProviderKit
import Synchronization
import WireFormats

/// A `NonceLedger` in memory (the gateway's durable one is tested in GatewayTests).
final class MemoryLedger: NonceLedger {
    private let seen = Mutex(Set<[UInt8]>())
    func consume(_ hash: [UInt8], expiresAt: Int64) async throws -> Bool { seen.withLock { $0.insert(hash).inserted } }
}

/// `ProviderRecords` in memory, ignoring expiry (the gateway's store-backed one is tested in GatewayTests).
final class MemoryRecords: ProviderRecords {
    private let values = Mutex([String: String]())
    var count: Int { values.withLock { $0.count } }
    func put(_ key: String, value: String, expiresAt: Int64) async throws { values.withLock { $0[key] = value } }
    func value(for key: String) async throws -> String? { values.withLock { $0[key] } }
}

/// Keeps what the provider logs, so tests can check warnings and that no secret reaches the log.
final class RecordingLog: ProviderLog {
    private let lines = Mutex<[(ProviderLogLevel, String, [(String, ProviderLogValue)])]>([])
    func record(_ level: ProviderLogLevel, _ message: StaticString, _ details: [(String, ProviderLogValue)]) {
        lines.withLock { $0.append((level, "\(message)", details)) }
    }
    var messages: [String] { lines.withLock { $0.map(\.1) } }
    /// Every message and detail as one text, to search for secrets.
    var text: String {
        lines.withLock { $0.map { "\($0.1) \($0.2.map { "\($0.0)=\($0.1)" })" }.joined(separator: "\n") }
    }
}

/// A provider wired to a fresh stand-in, in-memory ledger and records, and a manual clock.
struct FacebookFixture {
    let facebook = FakeFacebook()
    let time = ManualTime(milliseconds: 1_800_000_000_000)
    let log = RecordingLog()
    let records = MemoryRecords()
    let provider: FacebookProvider
    var now: Int64 { time.nowSeconds }

    init(_ configure: (inout FacebookConfiguration) -> Void = { _ in }) {
        var configuration = FacebookConfiguration(enabled: true, appId: FakeFacebook.appId, appSecret: FakeFacebook.appSecret,
                                                  graphBaseURL: FakeFacebook.graph, dialogBaseURL: FakeFacebook.dialog,
                                                  limitedLoginBaseURL: FakeFacebook.limited)
        configure(&configuration)
        provider = FacebookProvider(configuration: configuration, fetcher: facebook, ledger: MemoryLedger(), records: records,
                                    publicBaseURL: "https://auth.example.com", time: time, log: log)
    }

    static let context = RequestContext(clientAddress: "127.0.0.1", receivedAt: 0, projectId: "p")
    static func nonce(_ seed: Int = 0) -> String { "raw-nonce-\(seed)-0123456789abcdef" }

    func signIn(_ parameters: [String: String]) async throws -> VerifiedIdentity {
        var all = parameters
        all["providerId"] = "facebook.com"
        return try await provider.verify(ProviderAssertion(parameters: all, requestUri: "http://localhost"),
                                         context: Self.context)
    }

    func signIn(accessToken: String) async throws -> VerifiedIdentity { try await signIn(["access_token": accessToken]) }

    func signIn(idToken: String, nonce: String?) async throws -> VerifiedIdentity {
        var parameters = ["id_token": idToken]
        parameters["nonce"] = nonce
        return try await signIn(parameters)
    }

    /// The refusal a sign-in ends with, or nil when it succeeds.
    func refusal(_ parameters: [String: String]) async -> CredentialRefusal? {
        do {
            _ = try await signIn(parameters)
            return nil
        } catch let refusal as CredentialRefusal {
            return refusal
        } catch {
            return CredentialRefusal(.facebook, .missing, AuthError(.invalidIdpResponse, "unexpected \(error)"))
        }
    }

    /// A signed request as Facebook builds it: base64url(HMAC-SHA256(secret, encoded payload)) "." encoded payload.
    static func signedRequest(_ payload: JSONObject, secret: String = FakeFacebook.appSecret) -> String {
        let encoded = Base64URL.encode(JSONSerializer.bytes(.object(payload)))
        return Base64URL.encode(HMACSHA256.authenticate(key: Array(secret.utf8), message: Array(encoded.utf8))) + "." + encoded
    }

    func callbackPayload(userId: String = "10001", issuedAt: Int64? = nil, algorithm: String = "HMAC-SHA256") -> JSONObject {
        ["algorithm": .string(algorithm), "issued_at": .int(issuedAt ?? now), "user_id": .string(userId)]
    }

    /// Posts a callback the way Facebook does (form body) to the provider's event receiver.
    func callback(_ kind: String?, signedRequest: String?) async throws -> ProviderEventDelivery {
        let body = signedRequest.map { FormURLEncoding.encode([("signed_request", $0)]) } ?? ""
        let request = ProviderHTTPRequest(method: "POST", query: kind.map { [("callback", $0)] } ?? [],
                                          headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                          body: Array(body.utf8))
        return try await provider.receiveEvents(request, context: Self.context)
    }
}
