import AuthCore
import Crypto
import Outbound
import ProviderKit
import WireFormats

/// Delivers phone codes to an operator's HTTP receiver, which passes them to a local SMS company: one JSON POST
/// per code, signed so the receiver can tell the gateway's requests from anyone else's.
///
/// Contract (README, "Phone sign-in"): body `{"id","kind","phoneNumber","code","text","ttlSeconds"}`; headers
/// `X-Gatehouse-Timestamp` (Unix seconds) and `X-Gatehouse-Signature` = lower-case hex of
/// HMAC-SHA256(secret, timestamp + "\n" + body). A 2xx answer means accepted; 5xx, 408, 429 or no answer are
/// retried with backoff until the code expires; any other status means the receiver will never send it (given up,
/// logged). `id` stays the same across retries, so a receiver can drop repeats.
public struct WebhookCodeSender: CodeSender {
    public static let senderName = "sms-webhook"

    let settings: WebhookSettings
    let fetcher: any HTTPFetching
    let time: any TimeSource
    let log: any ProviderLog

    public init(settings: WebhookSettings, fetcher: any HTTPFetching, time: any TimeSource, log: any ProviderLog) {
        self.settings = settings
        self.fetcher = fetcher
        self.time = time
        self.log = log
    }

    public var name: String { Self.senderName }
    public var channel: MessageChannel { .phone }
    public var backoff: (initialSeconds: Int64, maxSeconds: Int64) { (settings.initialBackoffSeconds, settings.maxBackoffSeconds) }
    public var leaseSeconds: Double { settings.timeoutSeconds + 5 }

    public func deliver(_ message: OutgoingMessage) async throws(DeliveryFailure) -> DeliveryReceipt {
        var fields: JSONObject = ["id": .string(message.id), "kind": .string(message.kind),
                                  "phoneNumber": .string(message.recipient), "text": .string(message.text)]
        fields.set("code", message.code)
        if let ttl = message.ttlSeconds { fields["ttlSeconds"] = .int(ttl) }
        let body = JSONSerializer.bytes(.object(fields))
        let timestamp = String(time.nowSeconds)
        let headers = [("Content-Type", "application/json"), ("X-Gatehouse-Timestamp", timestamp),
                       ("X-Gatehouse-Signature", Self.signature(secret: settings.secret.value, timestamp: timestamp, body: body))]
        let response: OutboundResponse
        do {
            response = try await fetcher.send(OutboundRequest(method: "POST", url: settings.url, headers: headers, body: body,
                                                              timeout: .milliseconds(Int64(settings.timeoutSeconds * 1000))))
        } catch {
            log.warning("sms webhook unreachable", [("reason", .string(String("\(error)".prefix(200))))])
            throw DeliveryFailure("sms webhook unreachable")
        }
        switch response.status {
        case 200..<300:
            return DeliveryReceipt(senderMessageId: message.id)
        case 408, 429, 500...:
            log.warning("sms webhook unavailable", [("http.status", .int(Int64(response.status)))])
            throw DeliveryFailure("sms webhook answered HTTP \(response.status)")
        default:
            throw DeliveryFailure("sms webhook refused the message: HTTP \(response.status)", retryable: false)
        }
    }

    /// Lower-case hex of HMAC-SHA256(secret, timestamp + "\n" + body): what the receiver recomputes.
    public static func signature(secret: String, timestamp: String, body: [UInt8]) -> String {
        Hex.encode(HMACSHA256.authenticate(key: Array(secret.utf8), message: Array((timestamp + "\n").utf8) + body))
    }
}
