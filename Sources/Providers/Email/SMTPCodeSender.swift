import AuthCore
import Crypto
import Outbound
import ProviderKit

/// Delivers email over SMTP (libcurl) on its own thread, so a slow mail server never holds a cooperative
/// thread. The gateway's outbox calls it and retries failures with this sender's backoff.
public struct SMTPCodeSender: CodeSender {
    let delivery: SMTPDelivery
    let mailer: any MailSending
    let time: any TimeSource
    private let thread = WorkerPool(name: "smtp", threadCount: 1)

    public init(delivery: SMTPDelivery, mailer: any MailSending, time: any TimeSource) {
        self.delivery = delivery
        self.mailer = mailer
        self.time = time
    }

    public var name: String { "smtp" }
    public var channel: MessageChannel { .email }
    public var backoff: (initialSeconds: Int64, maxSeconds: Int64) {
        (delivery.initialBackoffSeconds, delivery.maxBackoffSeconds)
    }
    public var pollSeconds: Double { delivery.pollSeconds }
    public var leaseSeconds: Double { delivery.server.timeoutSeconds }

    public func deliver(_ message: OutgoingMessage) async throws(DeliveryFailure) -> DeliveryReceipt {
        let domain = delivery.fromAddress.split(separator: "@").last.map(String.init) ?? "gatehouse"
        let mail = MailMessage(fromAddress: delivery.fromAddress, fromName: delivery.fromName, to: message.recipient,
                               subject: message.subject, text: message.text, html: message.html ?? "",
                               date: time.nowSeconds, messageId: "\(message.id)@\(domain)")
        let mailer = mailer
        do {
            try await thread.run { try mailer.send(mail) }
        } catch {
            throw DeliveryFailure(String(String(describing: error).prefix(300)))
        }
        return DeliveryReceipt(senderMessageId: mail.messageId)
    }

    public func stop() { thread.stop() }
}
