import AuthCore
import Crypto
import Foundation
import Outbound
import Storage
import Synchronization
import WireFormats

/// Durable, asynchronous mail delivery. A request only writes the message into the store's outbox (sealed,
/// because it carries a live sign-in or reset link); a background sender submits it over SMTP on its own
/// thread and retries failures with exponential backoff. A message is given up only when the link in it has
/// expired, and that is logged as an error and counted — never silently dropped.
final class MailOutbox: Sendable {
    static let kind = "mail"
    static let purpose = "gatehouse.outbox.mail.v1"

    let store: any UserStore
    let sealer: Sealer
    let time: any TimeSource
    let logger: Logger
    let delivery: SMTPDelivery?
    let mailer: (any MailSending)?
    private let sender = WorkerPool(name: "smtp", threadCount: 1)
    /// The sender's pause between rounds, and whether an enqueue asked it to cut the pause short.
    private let pause = Mutex<(woken: Bool, sleeper: Task<Void, Never>?)>((false, nil))
    let sent = Atomic<Int>(0)
    let failedAttempts = Atomic<Int>(0)
    let abandoned = Atomic<Int>(0)
    /// Messages waiting in the outbox: counted when the sender starts, then kept by enqueues and outcomes
    /// (messages other instances queue meanwhile show up after a restart).
    /// May dip below zero when this instance sends what another one queued; read it through `queuedCount`.
    let queued = Atomic<Int>(0)
    var queuedCount: Int { max(0, queued.load(ordering: .relaxed)) }
    /// Rounds the background sender has made (each looks at the outbox once).
    let rounds = Atomic<Int>(0)

    init(store: any UserStore, sealer: Sealer, time: any TimeSource, logger: Logger, delivery: SMTPDelivery?,
         mailer: (any MailSending)?) {
        self.store = store
        self.sealer = sealer
        self.time = time
        self.logger = logger
        self.delivery = delivery
        self.mailer = mailer ?? delivery.map { SMTPMailer(settings: $0.server) }
    }

    var isEnabled: Bool { mailer != nil && delivery != nil }

    /// Queues one message; returns once it is durable. Without SMTP configured nothing is queued.
    func enqueue(to recipient: String, _ email: RenderedEmailParts, expiresAt: Int64) async throws {
        guard let delivery, isEnabled else {
            logger.info("mail not sent: no SMTP server configured", [("mail.kind", .string(email.kind))])
            return
        }
        let now = time.nowMilliseconds
        let id = SecureRandom.alphanumeric(length: 22)
        let message = MailMessage(fromAddress: delivery.fromAddress, fromName: delivery.fromName, to: recipient,
                                  subject: email.subject, text: email.text, html: email.html, date: now / 1000,
                                  messageId: "\(id)@\(delivery.fromAddress.split(separator: "@").last ?? "gatehouse")")
        let sealed = try sealer.seal(Array(try JSONEncoder().encode(message)), purpose: Self.purpose)
        let payload = JSONSerializer.string(.object(["sealed": .string(Base64.encode(sealed)),
                                                      "expiresAt": .int(expiresAt), "kind": .string(email.kind)]))
        try await store.write { tx in
            try tx.insertOutboxItem(OutboxItem(id: id, kind: Self.kind, payload: payload, nextAttemptAt: now, createdAt: now))
        }
        queued.add(1, ordering: .relaxed)
        wake()
    }

    /// Ends the sender's current pause now, or (if it is busy) makes its next pause end at once.
    func wake() {
        let sleeper = pause.withLock { state -> Task<Void, Never>? in
            guard let sleeper = state.sleeper else {
                state.woken = true
                return nil
            }
            return sleeper
        }
        sleeper?.cancel()
    }

    /// Sends until cancelled: wakes on every enqueue and otherwise polls (other instances enqueue too).
    func run() async {
        guard let delivery, isEnabled else { return }
        if let waiting = try? await store.read({ tx in try tx.outboxItems(kind: Self.kind).count }) {
            queued.store(waiting, ordering: .relaxed)
        }
        while !Task.isCancelled {
            rounds.add(1, ordering: .relaxed)
            _ = await deliverDue()
            let sleeper = Task { _ = try? await Task.sleep(for: .seconds(delivery.pollSeconds)) }
            let wokenMeanwhile = pause.withLock { state -> Bool in
                defer { state.woken = false }
                if !state.woken { state.sleeper = sleeper }
                return state.woken
            }
            if wokenMeanwhile { sleeper.cancel() }
            await withTaskCancellationHandler { await sleeper.value } onCancel: { sleeper.cancel() }
            pause.withLock { $0.sleeper = nil }
        }
    }

    /// Claims what is due (a lease long enough for one send), sends it, and records the outcome. Returns how
    /// many messages were accepted by the server.
    @discardableResult
    func deliverDue(limit: Int = 20) async -> Int {
        guard let delivery, let mailer else { return 0 }
        let now = time.nowMilliseconds
        let lease = Int64(delivery.server.timeoutSeconds * 1000) + 30_000
        let claimed: [OutboxItem]
        do {
            claimed = try await store.write { tx in
                try tx.dueOutboxItems(kind: Self.kind, dueBy: now, limit: limit).map { item in
                    var leased = item
                    leased.nextAttemptAt = now + lease
                    try tx.updateOutboxItem(leased)
                    return leased
                }
            }
        } catch {
            logger.error("mail outbox unavailable", [("error", .string(String(describing: error)))])
            return 0
        }
        var delivered = 0
        for item in claimed where await attempt(item, mailer: mailer, delivery: delivery) { delivered += 1 }
        return delivered
    }

    private func attempt(_ item: OutboxItem, mailer: any MailSending, delivery: SMTPDelivery) async -> Bool {
        let fields = (try? JSONParser.parse(item.payload))?.objectValue
        let expiresAt = fields?["expiresAt"]?.intValue ?? 0
        let kind = fields?["kind"]?.stringValue ?? "unknown"
        let metadata: Logger.Metadata = [("mail.id", .string(item.id)), ("mail.kind", .string(kind)),
                                         ("mail.attempts", .int(Int64(item.attempts + 1)))]
        guard expiresAt > time.nowMilliseconds,
              let sealed = fields?["sealed"]?.stringValue.flatMap(Base64.decode),
              let plain = try? sealer.open(sealed, purpose: Self.purpose),
              let message = try? JSONDecoder().decode(MailMessage.self, from: Data(plain))
        else {
            abandoned.add(1, ordering: .relaxed)
            logger.error("mail abandoned: its link expired before it could be delivered",
                         metadata + [("mail.last_error", .string(item.lastError ?? "none"))])
            await remove(item)
            return false
        }
        do {
            try await sender.run { try mailer.send(message) }
            sent.add(1, ordering: .relaxed)
            logger.info("mail sent", metadata)
            await remove(item)
            return true
        } catch {
            failedAttempts.add(1, ordering: .relaxed)
            var retry = item
            retry.attempts += 1
            let exponent = min(retry.attempts - 1, 20)
            let backoff = min(delivery.maxBackoffSeconds, delivery.initialBackoffSeconds << Int64(exponent))
            retry.nextAttemptAt = time.nowMilliseconds + backoff * 1000
            retry.lastError = String(String(describing: error).prefix(300))
            logger.warning("mail delivery failed; will retry", metadata + [
                ("error", .string(retry.lastError ?? "")), ("retry_in_s", .int(backoff)),
            ])
            let failed = retry
            _ = try? await store.write { tx in try tx.updateOutboxItem(failed) }
            return false
        }
    }

    private func remove(_ item: OutboxItem) async {
        let deleted = (try? await store.write { tx in try tx.deleteOutboxItem(id: item.id) }) ?? false
        if deleted { queued.subtract(1, ordering: .relaxed) }
    }

    func stop() {
        sender.stop()
    }
}

/// A rendered action email plus what it is (for logs; never the link itself).
struct RenderedEmailParts: Sendable {
    var kind: String
    var subject: String
    var text: String
    var html: String
}
