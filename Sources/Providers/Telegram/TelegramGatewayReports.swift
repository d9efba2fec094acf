import AuthCore
import Crypto
import ProviderKit
import WireFormats

/// Receives the Gateway API's delivery reports on `POST /gatehouse/v1/providers/gateway.telegram.org/events`.
///
/// A report is accepted only with a fresh `X-Request-Timestamp` and an `X-Request-Signature` equal to
/// hex(HMAC-SHA256(key: SHA-256(API token), timestamp + "\n" + raw body)); the status it carries (`sent`,
/// `delivered`, `read`, `expired`, `revoked`) is recorded under the outbox id the code was sent with (the
/// report's `payload`) for a day and logged. Reports change no account.
public struct TelegramGatewayReports: ProviderEventReceiver {
    let settings: TelegramGatewaySettings
    let records: any ProviderRecords
    let time: any TimeSource
    let log: any ProviderLog

    public init(settings: TelegramGatewaySettings, records: any ProviderRecords, time: any TimeSource, log: any ProviderLog) {
        self.settings = settings
        self.records = records
        self.time = time
        self.log = log
    }

    public var id: ProviderID { .telegramGateway }
    public var isEnabled: Bool { true }

    public var startupSummary: [(String, ProviderLogValue)] {
        [("base_url", .string(settings.baseURL)), ("check_send_ability", .bool(settings.checkSendAbility))]
    }

    public func receiveEvents(_ request: ProviderHTTPRequest, context: RequestContext) async throws -> ProviderEventDelivery {
        try verify(request)
        guard let report = request.jsonObject else {
            throw ProviderRequestError("a delivery report is a JSON object")
        }
        let status = report["delivery_status"]?["status"]?.stringValue ?? "unknown"
        let key = report["payload"]?.stringValue ?? report["request_id"]?.stringValue
        if let key, !key.isEmpty {
            var entry: JSONObject = ["deliveryStatus": .string(status)]
            entry.set("requestId", report["request_id"]?.stringValue)
            entry.set("updatedAt", report["delivery_status"]?["updated_at"]?.intValue)
            entry.set("verificationStatus", report["verification_status"]?["status"]?.stringValue)
            try await records.put("delivery:" + key, value: JSONSerializer.string(.object(entry)),
                                  expiresAt: time.nowMilliseconds + 86_400_000)
        }
        log.info("telegram gateway delivery report", [("status", .string(String(status.prefix(32))))])
        return ProviderEventDelivery(events: [], label: "delivery_report:" + String(status.prefix(32))) { _ in .json([:]) }
    }

    /// The timestamp's freshness, then the signature, compared in constant time.
    func verify(_ request: ProviderHTTPRequest) throws {
        guard let timestamp = request.header("X-Request-Timestamp"), let seconds = Int64(timestamp),
              let signature = request.header("X-Request-Signature").flatMap({ Hex.decode($0.lowercased()) }) else {
            throw CredentialRefusal(.telegramGateway, .missing, AuthError(.invalidIdpResponse, "The delivery report is not signed"))
        }
        guard abs(time.nowSeconds - seconds) <= settings.reportMaxAgeSeconds else {
            throw CredentialRefusal(.telegramGateway, .expiry, AuthError(.invalidIdpResponse, "The delivery report is too old"))
        }
        let key = SHA256.hash(Array(settings.token.value.utf8))
        let expected = HMACSHA256.authenticate(key: key, message: Array((timestamp + "\n").utf8) + request.body)
        guard constantTimeEquals(expected, signature) else {
            throw CredentialRefusal(.telegramGateway, .signature, AuthError(.invalidIdpResponse, "The delivery report's signature does not match"))
        }
    }
}
