import AuthCore
import Outbound
import ProviderKit
import Testing
import WireFormats
@testable import ProviderPhone

/// A receiver that answers every request with one status (or cannot be reached).
struct FixedReceiver: HTTPFetching {
    let status: Int?
    func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        guard let status else { throw OutboundError.invalidRequest("unreachable") }
        return OutboundResponse(status: status)
    }
}

@Suite("SMS webhook sender")
struct WebhookSenderTests {
    func deliver(_ status: Int?) async -> DeliveryFailure? {
        let sender = WebhookCodeSender(settings: WebhookSettings(url: "https://sms.example/hook", secret: PhoneSecret("0123456789abcdef")),
                                       fetcher: FixedReceiver(status: status), time: ManualTime(milliseconds: 0), log: SilentProviderLog())
        let message = OutgoingMessage(channel: .phone, recipient: "+15550001111", kind: "phone.code", text: "123456",
                                      code: "123456", ttlSeconds: 300, id: "m1")
        do {
            _ = try await sender.deliver(message)
            return nil
        } catch {
            return error
        }
    }

    @Test("2xx is delivered; 5xx, 408, 429 and no answer are retried; other statuses are given up")
    func outcomes() async {
        #expect(await deliver(204) == nil)
        for status in [500, 503, 408, 429] { #expect(await deliver(status)?.retryable == true) }
        #expect(await deliver(nil)?.retryable == true)
        #expect(await deliver(422)?.retryable == false)
        #expect(await deliver(401)?.retryable == false)
    }

    @Test("the signature is HMAC-SHA256 over timestamp, newline and body (vector from Python's hmac module)")
    func signatureVector() {
        #expect(WebhookCodeSender.signature(secret: "0123456789abcdef", timestamp: "1800000000", body: Array("{}".utf8))
            == "8864b0dceeafeb396f409a5fc1197dd7be1ff294bca2539da3bc960f8218d60c")
    }
}
