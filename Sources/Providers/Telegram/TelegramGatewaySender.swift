import AuthCore
import Outbound
import ProviderKit
import WireFormats

/// Delivers phone codes through Telegram's Gateway API: `checkSendAbility` (optional), then
/// `sendVerificationMessage` with the gateway's own code, its `ttl`, the outbox id as `payload` (so delivery
/// reports can be matched) and the callback URL for reports.
///
/// Telegram charges for each `checkSendAbility`, and a send that names its `request_id` costs nothing more. When
/// the send fails for now, the `request_id` is kept with the message (`DeliveryFailure.keep`) and its retries
/// send with it instead of paying for another check; should Telegram refuse a kept id, one fresh check is made.
///
/// Failures are told apart for the outbox: a number Telegram cannot reach, or a request Telegram refuses, goes to
/// the next phone sender at once and is not retried here; a Gateway that is down, slow or rate limiting also lets
/// the next sender try, and is retried with backoff when no sender took the code.
public struct TelegramGatewaySender: CodeSender {
    public static let senderName = "telegram-gateway"

    let settings: TelegramGatewaySettings
    let callbackURL: String?
    let fetcher: any HTTPFetching
    let log: any ProviderLog

    public init(settings: TelegramGatewaySettings, publicBaseURL: String, fetcher: any HTTPFetching, log: any ProviderLog) {
        self.settings = settings
        self.callbackURL = settings.callbackURL(publicBaseURL: publicBaseURL)
        self.fetcher = fetcher
        self.log = log
    }

    public var name: String { Self.senderName }
    public var channel: MessageChannel { .phone }
    /// Codes live minutes: retry soon.
    public var backoff: (initialSeconds: Int64, maxSeconds: Int64) { (2, 30) }
    public var leaseSeconds: Double { settings.timeoutSeconds * 2 + 5 }

    /// The note under which a paid `checkSendAbility`'s `request_id` waits for the message's next attempt.
    public static let requestIdNote = "telegram-gateway.request_id"

    public func deliver(_ message: OutgoingMessage) async throws(DeliveryFailure) -> DeliveryReceipt {
        guard let code = message.code else { throw DeliveryFailure("no code to send", retryable: false, tryNextSender: true) }
        if settings.checkSendAbility, let kept = message.notes?[Self.requestIdNote] {
            do { return try await send(message, code: code, requestId: kept) } catch {
                // Refused with the kept id (it may have expired): pay for one fresh check. Down again: keep waiting.
                guard !error.retryable else { throw error }
            }
        }
        var requestId: String?
        if settings.checkSendAbility {
            let ability = try await call("checkSendAbility", ["phone_number": .string(message.recipient)])
            requestId = ability["request_id"]?.stringValue
        }
        return try await send(message, code: code, requestId: requestId)
    }

    /// `sendVerificationMessage`; a failure for now keeps `requestId` for the retry.
    private func send(_ message: OutgoingMessage, code: String, requestId: String?) async throws(DeliveryFailure) -> DeliveryReceipt {
        var fields: JSONObject = ["phone_number": .string(message.recipient), "code": .string(code),
                                  "payload": .string(message.id)]
        fields.set("request_id", requestId)
        if let ttl = message.ttlSeconds { fields["ttl"] = .int(min(3600, max(30, ttl))) }
        fields.set("callback_url", callbackURL)
        fields.set("sender_username", settings.senderUsername)
        do {
            let status = try await call("sendVerificationMessage", fields)
            return DeliveryReceipt(senderMessageId: status["request_id"]?.stringValue ?? requestId)
        } catch {
            var failure = error
            if failure.retryable, let requestId { failure.keep[Self.requestIdNote] = requestId }
            throw failure
        }
    }

    /// One Gateway API method; its `result` object, or the failure as the outbox should treat it.
    private func call(_ method: String, _ fields: JSONObject) async throws(DeliveryFailure) -> JSONObject {
        let url = TelegramEndpoints.url(settings.baseURL, "/" + method)
        let headers = [("Authorization", "Bearer " + settings.token.value), ("Content-Type", "application/json")]
        let response: OutboundResponse
        do {
            response = try await fetcher.send(OutboundRequest(method: "POST", url: url, headers: headers,
                                                              body: JSONSerializer.bytes(.object(fields)),
                                                              timeout: .milliseconds(Int64(settings.timeoutSeconds * 1000))))
        } catch {
            log.warning("telegram gateway unreachable", [("method", .string(method)), ("reason", .string(String("\(error)".prefix(200))))])
            throw DeliveryFailure("telegram gateway unreachable", retryable: true, tryNextSender: true)
        }
        if response.status >= 500 || response.status == 429 {
            log.warning("telegram gateway unavailable", [("method", .string(method)), ("http.status", .int(Int64(response.status)))])
            throw DeliveryFailure("telegram gateway answered HTTP \(response.status)", retryable: true, tryNextSender: true)
        }
        let answer = (try? JSONParser.parse(response.body))?.objectValue
        guard let answer, answer["ok"]?.boolValue == true, let result = answer["result"]?.objectValue else {
            // Telegram's error names (`PHONE_NUMBER_INVALID`, `ACCESS_TOKEN_INVALID`, ...) are not secrets.
            let error = String((answer?["error"]?.stringValue ?? "HTTP \(response.status)").prefix(64))
            log.info("telegram gateway refused", [("method", .string(method)), ("error", .string(error))])
            throw DeliveryFailure("telegram gateway refused \(method): \(error)", retryable: false, tryNextSender: true)
        }
        return result
    }
}
