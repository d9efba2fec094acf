import AuthCore
import Crypto
import Outbound
import Storage
import Synchronization
@testable import Gateway
import WireFormats

/// A Telegram Gateway API and an SMS webhook receiver in memory: records every request and answers as told, so
/// tests read the code a user would receive and switch either service off.
final class FakePhoneServices: HTTPFetching, Sendable {
    static let telegramBase = "https://gateway.test"
    static let webhookURL = "https://sms.test/hook"
    static let telegramToken = "gateway-token-0123456789"
    static let webhookSecret = "webhook-secret-0123456789"

    /// `sendFailing`: `checkSendAbility` answers, `sendVerificationMessage` is down (HTTP 502).
    enum TelegramMode: Sendable { case working, down, numberNotOnTelegram, sendFailing }

    struct Sent: Sendable {
        var via: String
        var phoneNumber: String
        var code: String
        var fields: JSONObject
        var headers: [(String, String)]
        var body: [UInt8]
    }

    private struct State {
        var telegram = TelegramMode.working
        var webhookUp = true
        /// The webhook refuses every message for good (HTTP 400).
        var webhookRefuses = false
        var sent: [Sent] = []
        var calls: [String] = []
        /// `request_id`s handed out by `checkSendAbility` (`req-1`, `req-2`, …) that a send may still name.
        var requestIds: [String] = []
        var checks = 0
    }

    private let state = Mutex(State())

    var sent: [Sent] { state.withLock { $0.sent } }
    var calls: [String] { state.withLock { $0.calls } }
    func calls(to method: String) -> Int { calls.filter { $0.hasSuffix("/" + method) }.count }
    func setTelegram(_ mode: TelegramMode) { state.withLock { $0.telegram = mode } }
    func setWebhookUp(_ up: Bool) { state.withLock { $0.webhookUp = up } }
    func setWebhookRefuses(_ refuses: Bool) { state.withLock { $0.webhookRefuses = refuses } }
    /// Telegram no longer knows the `request_id`s it handed out: a send naming one is refused.
    func forgetRequestIds() { state.withLock { $0.requestIds = [] } }
    /// The last code sent to `phoneNumber`, by whichever service.
    func lastCode(to phoneNumber: String) -> String? { sent.last { $0.phoneNumber == phoneNumber }?.code }

    func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        let fields = (try? JSONParser.parse(request.body))?.objectValue ?? [:]
        return try state.withLock { s in
            s.calls.append(request.url)
            if request.url.hasPrefix(Self.webhookURL) {
                guard s.webhookUp else { return OutboundResponse(status: 503) }
                guard !s.webhookRefuses else { return OutboundResponse(status: 400) }
                s.sent.append(Sent(via: "webhook", phoneNumber: fields["phoneNumber"]?.stringValue ?? "",
                                   code: fields["code"]?.stringValue ?? "", fields: fields, headers: request.headers, body: request.body))
                return OutboundResponse(status: 200, body: Array("{}".utf8))
            }
            guard request.url.hasPrefix(Self.telegramBase) else { throw OutboundError.invalidRequest("offline") }
            guard request.headers.contains(where: { $0.0 == "Authorization" && $0.1 == "Bearer " + Self.telegramToken }) else {
                return Self.json(["ok": false, "error": "ACCESS_TOKEN_INVALID"])
            }
            switch s.telegram {
            case .down: return OutboundResponse(status: 502)
            case .numberNotOnTelegram: return Self.json(["ok": false, "error": "PHONE_NUMBER_NOT_AVAILABLE"])
            case .sendFailing where request.url.hasSuffix("/sendVerificationMessage"): return OutboundResponse(status: 502)
            case .working, .sendFailing: break
            }
            var requestId = fields["request_id"]?.stringValue
            if request.url.hasSuffix("/checkSendAbility") {
                s.checks += 1
                requestId = "req-\(s.checks)"
                s.requestIds.append(requestId ?? "")
            } else if let named = requestId, !s.requestIds.contains(named) {
                return Self.json(["ok": false, "error": "REQUEST_ID_INVALID"])
            }
            if request.url.hasSuffix("/sendVerificationMessage") {
                s.sent.append(Sent(via: "telegram", phoneNumber: fields["phone_number"]?.stringValue ?? "",
                                   code: fields["code"]?.stringValue ?? "", fields: fields, headers: request.headers, body: request.body))
            }
            return Self.json(["ok": true, "result": ["request_id": .string(requestId ?? "req-unchecked"),
                                                     "phone_number": fields["phone_number"] ?? .null, "request_cost": .double(0.01)]])
        }
    }

    static func json(_ object: JSONObject) -> OutboundResponse {
        OutboundResponse(status: 200, headers: [("Content-Type", "application/json")], body: JSONSerializer.bytes(.object(object)))
    }
}

extension TestGateway {
    static let phoneKey = "test-key"

    /// A gateway with phone sign-in on, both senders configured against `services`, and `configure` applied last.
    static func withPhone(_ services: FakePhoneServices = FakePhoneServices(), telegram: Bool = true, webhook: Bool = true,
                          store: (any UserStore)? = nil,
                          _ configure: @escaping (inout GatewayConfiguration) -> Void = { _ in }) async throws -> TestGateway {
        try await TestGateway.make(store: store, fetcher: services) { config in
            config.setPluginValue("phone.enabled", true)
            if telegram {
                config.setPluginValue("telegram.gateway.baseUrl", .string(FakePhoneServices.telegramBase))
                config.setPluginValue("telegram.gateway.callbackUrl", "https://auth.example/gatehouse/v1/providers/gateway.telegram.org/events")
                config.environment["GATEHOUSE_TELEGRAM_GATEWAY_TOKEN"] = FakePhoneServices.telegramToken
            }
            if webhook {
                config.setPluginValue("phone.webhook.url", .string(FakePhoneServices.webhookURL))
                config.environment["GATEHOUSE_PHONE_WEBHOOK_SECRET"] = FakePhoneServices.webhookSecret
            }
            configure(&config)
        }
    }

    func sendCode(_ phoneNumber: String, from address: String = "127.0.0.1") async -> Reply {
        await post("\(Self.v1)/accounts:sendVerificationCode", .object(["phoneNumber": .string(phoneNumber)]), from: address)
    }

    func signInWithPhone(_ fields: JSONObject) async -> Reply {
        await post("\(Self.v1)/accounts:signInWithPhoneNumber", .object(fields))
    }

    /// Sends a code, delivers it, and signs in with it (with `idToken`, links).
    func phoneSignIn(_ phoneNumber: String, services: FakePhoneServices, idToken: String? = nil) async -> Reply {
        let session = await sendCode(phoneNumber)["sessionInfo"]?.stringValue ?? ""
        await app.services.outbox.deliverDue()
        var fields: JSONObject = ["sessionInfo": .string(session), "code": .string(services.lastCode(to: phoneNumber) ?? "")]
        fields.set("idToken", idToken)
        return await signInWithPhone(fields)
    }
}
