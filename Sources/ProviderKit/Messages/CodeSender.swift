import WireFormats

/// How a message reaches a person.
public enum MessageChannel: String, Sendable, Codable, Equatable {
    /// An email address (action links, sign-in links).
    case email
    /// A phone number in E.164 (one-time codes by Telegram or SMS).
    case phone
}

/// A message to deliver: an action email or a one-time code. The gateway seals it into the durable outbox
/// before answering the request, and a background worker hands it to a `CodeSender` (retrying with backoff),
/// so a sender that is down delays the message but never loses it or fails the request.
public struct OutgoingMessage: Sendable, Equatable, Codable {
    public var channel: MessageChannel
    /// The address or phone number.
    public var recipient: String
    /// What it is, for logs and metrics (`"PASSWORD_RESET"`, `"phone.code"`): never the content.
    public var kind: String
    public var subject: String
    /// The plain-text body (or the whole SMS).
    public var text: String
    /// The HTML body, for email.
    public var html: String?
    /// A one-time code the text carries, for senders that deliver codes in their own template (Telegram Gateway).
    public var code: String?
    /// Seconds the code or link stays usable (a sender may pass it on, e.g. Telegram's `ttl`).
    public var ttlSeconds: Int64?
    /// A stable id the gateway assigns (also the outbox id); senders may use it as a message or request id.
    public var id: String
    /// What senders kept from earlier attempts at this message (`DeliveryFailure.keep`), by key: Telegram Gateway's
    /// `request_id` from a `checkSendAbility` it already paid for. nil before any was kept (and in messages queued
    /// before this field existed).
    public var notes: [String: String]?

    public init(channel: MessageChannel, recipient: String, kind: String, subject: String = "", text: String,
                html: String? = nil, code: String? = nil, ttlSeconds: Int64? = nil, id: String) {
        self.channel = channel
        self.recipient = recipient
        self.kind = kind
        self.subject = subject
        self.text = text
        self.html = html
        self.code = code
        self.ttlSeconds = ttlSeconds
        self.id = id
    }
}

/// Why a delivery attempt failed. `retryable` failures are tried again with backoff; others give the message up
/// (logged as an error) or hand it to the next sender of the channel.
public struct DeliveryFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var retryable: Bool
    /// The recipient cannot be reached by this sender at all (a number not on Telegram): try the next sender.
    public var tryNextSender: Bool
    /// Notes for the next attempt at the same message, merged into its `notes` (kept sealed with it in the outbox,
    /// so any instance's retry reads them). Keys are the sender's own, e.g. prefixed with its name.
    public var keep: [String: String]

    public init(_ reason: String, retryable: Bool = true, tryNextSender: Bool = false, keep: [String: String] = [:]) {
        self.reason = reason
        self.retryable = retryable
        self.tryNextSender = tryNextSender
        self.keep = keep
    }

    public var description: String { reason }
}

/// What a successful hand-over returned.
public struct DeliveryReceipt: Sendable, Equatable {
    /// The sender's id for the message (for matching later delivery reports), when it has one.
    public var senderMessageId: String?
    public init(senderMessageId: String? = nil) { self.senderMessageId = senderMessageId }
}

/// The second kind of plugin: delivers messages on one channel (SMTP for email; Telegram Gateway or an SMS
/// webhook for phone numbers). Senders of a channel are tried in their registration order.
public protocol CodeSender: Sendable {
    /// A short stable name for logs and metrics (`"smtp"`).
    var name: String { get }
    var channel: MessageChannel { get }
    /// Blocking work (SMTP) must not run on the caller's thread: senders use their own worker threads.
    func deliver(_ message: OutgoingMessage) async throws(DeliveryFailure) -> DeliveryReceipt
    /// The retry policy for this sender's failures: first delay and cap, in seconds.
    var backoff: (initialSeconds: Int64, maxSeconds: Int64) { get }
    /// The longest one delivery may take (the outbox reserves a message this long for one attempt).
    var leaseSeconds: Double { get }
    /// How often the outbox looks for messages other instances queued, when nothing woke it.
    var pollSeconds: Double { get }
    /// Releases threads on shutdown.
    func stop()
}

extension CodeSender {
    public var backoff: (initialSeconds: Int64, maxSeconds: Int64) { (5, 600) }
    public var leaseSeconds: Double { 60 }
    public var pollSeconds: Double { 1 }
    public func stop() {}
}
