import AuthCore
import Crypto
import Foundation
import ProviderKit
import Storage
import Synchronization
import WireFormats

/// Durable, asynchronous delivery of messages (action mail today, one-time codes next) through the code-sender
/// plugins. A request only writes the message into the store's outbox, sealed because it carries a live link
/// or code; a background loop hands it to the channel's senders (in registration order, the next one when a
/// sender cannot reach the recipient) and retries failures with the sender's backoff. A message is given up only
/// when what it carries has expired, and that is logged as an error and counted, never silently dropped.
final class MessageOutbox: Sendable {
    static let kind = StoredKinds.outboxMessage
    static let purpose = SealingPurposes.outboxMessage
    static let expired = "expired"

    let store: any UserStore
    let sealer: Sealer
    let time: any TimeSource
    let logger: Logger
    let senders: [any CodeSender]
    private let worker: OutboxWorker
    /// The sender's pause between rounds, and whether an enqueue asked it to cut the pause short.
    private let pause = Mutex<(woken: Bool, sleeper: Task<Void, Never>?)>((false, nil))
    let sent = Atomic<Int>(0)
    let failedAttempts = Atomic<Int>(0)
    let abandoned = Atomic<Int>(0)
    /// Messages waiting: counted when the loop starts, then kept by enqueues and outcomes. May dip below zero
    /// when this instance sends what another one queued; read it through `queuedCount`.
    let queued = Atomic<Int>(0)
    let metrics: GatewayMetrics?
    var queuedCount: Int { max(0, queued.load(ordering: .relaxed)) }
    /// Rounds the background loop has made (each looks at the outbox once).
    let rounds = Atomic<Int>(0)

    init(store: any UserStore, sealer: Sealer, time: any TimeSource, logger: Logger, senders: [any CodeSender],
         metrics: GatewayMetrics? = nil) {
        self.metrics = metrics
        self.store = store
        self.sealer = sealer
        self.time = time
        self.logger = logger
        self.senders = senders
        // A message may go through every sender of its channel in one attempt: the lease covers them all.
        let longestLease = senders.isEmpty ? 60 : senders.map(\.leaseSeconds).reduce(0, +)
        worker = OutboxWorker(kind: Self.kind, store: store, time: time,
                              leaseMilliseconds: Int64(longestLease * 1000) + 30_000)
    }

    func senders(for channel: MessageChannel) -> [any CodeSender] { senders.filter { $0.channel == channel } }

    /// Whether anything can deliver on `channel`.
    func canDeliver(_ channel: MessageChannel) -> Bool { !senders(for: channel).isEmpty }

    /// Queues one message; returns once it is durable. With no sender for its channel nothing is queued (the
    /// emulator and tests read codes elsewhere), which is logged.
    func enqueue(_ message: OutgoingMessage, expiresAt: Int64) async throws {
        guard canDeliver(message.channel) else {
            logger.info("message not sent: no sender configured for its channel",
                        [("message.kind", .string(message.kind)), ("channel", .string(message.channel.rawValue))])
            return
        }
        let now = time.nowMilliseconds
        let payload = try sealedPayload(message, expiresAt: expiresAt)
        try await store.write { tx in
            try tx.insertOutboxItem(OutboxItem(id: message.id, kind: Self.kind, payload: payload, nextAttemptAt: now,
                                               createdAt: now))
        }
        queued.add(1, ordering: .relaxed)
        wake()
    }

    /// The outbox item's text: the message sealed (it carries a live link or code), its expiry and kind in clear.
    private func sealedPayload(_ message: OutgoingMessage, expiresAt: Int64) throws -> String {
        let sealed = try sealer.seal(Array(try JSONEncoder().encode(message)), purpose: Self.purpose)
        return JSONSerializer.string(.object(["sealed": .string(Base64.encode(sealed)), "expiresAt": .int(expiresAt),
                                               "kind": .string(message.kind)]))
    }

    /// Ends the loop's current pause now, or (if it is busy) makes its next pause end at once.
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

    /// Delivers until cancelled: wakes on every enqueue and otherwise polls (other instances enqueue too).
    func run() async {
        guard !senders.isEmpty else { return }
        let pollSeconds = senders.map(\.pollSeconds).min() ?? 1
        if let waiting = try? await store.read({ tx in try tx.outboxItems(kind: Self.kind).count }) {
            queued.store(waiting, ordering: .relaxed)
        }
        while !Task.isCancelled {
            rounds.add(1, ordering: .relaxed)
            _ = await deliverDue()
            let sleeper = Task { _ = try? await Task.sleep(for: .seconds(pollSeconds)) }
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

    /// Claims what is due, delivers it, and records each outcome. Returns how many messages a sender accepted.
    @discardableResult
    func deliverDue(limit: Int = 20) async -> Int {
        let results: [(OutboxItem, OutboxAttempt)]
        do {
            results = try await worker.runDue(limit: limit) { item in await self.attempt(item) }
        } catch {
            logger.error("mail outbox unavailable", [("error", .string(String(describing: error)))])
            return 0
        }
        var delivered = 0
        for (item, outcome) in results {
            metrics?.outboxAttempted(kind: Self.kind, outcome: outcome)
            let metadata = Self.metadata(item)
            switch outcome {
            case .done:
                delivered += 1
                sent.add(1, ordering: .relaxed)
                queued.subtract(1, ordering: .relaxed)
                logger.info("mail sent", metadata)
            case .retry(let reason, let delay, _):
                failedAttempts.add(1, ordering: .relaxed)
                logger.warning("mail delivery failed; will retry",
                               metadata + [("error", .string(reason)), ("retry_in_s", .int(delay / 1000))])
            case .abandon(let reason):
                abandoned.add(1, ordering: .relaxed)
                queued.subtract(1, ordering: .relaxed)
                let details = metadata + [("reason", .string(reason)), ("mail.last_error", .string(item.lastError ?? "none"))]
                if reason == Self.expired {
                    logger.error("mail abandoned: its link expired before it could be delivered", details)
                } else {
                    logger.error("mail abandoned: it cannot be delivered", details)
                }
            }
        }
        return delivered
    }

    /// One attempt: open the message, then try the channel's senders in order.
    private func attempt(_ item: OutboxItem) async -> OutboxAttempt {
        let fields = (try? JSONParser.parse(item.payload))?.objectValue
        guard (fields?["expiresAt"]?.intValue ?? 0) > time.nowMilliseconds else { return .abandon(Self.expired) }
        guard let sealed = fields?["sealed"]?.stringValue.flatMap(Base64.decode),
              let plain = try? sealer.open(sealed, purpose: Self.purpose),
              let message = try? JSONDecoder().decode(OutgoingMessage.self, from: Data(plain))
        else { return .abandon("the message cannot be unsealed (was the master key changed?)") }
        var lastFailure = DeliveryFailure("no sender for the channel", retryable: false)
        // The first sender that passed the message on while it was down: retried with its backoff when no later
        // sender took the message (a Telegram Gateway outage with no working fallback delays the code, never drops
        // it), even when a later sender refused it for good.
        var retryWith: (any CodeSender)?
        var notes = message.notes ?? [:]
        func retry(_ reason: String, with sender: any CodeSender) -> OutboxAttempt {
            let delay = Self.delay(sender, item)
            guard notes != (message.notes ?? [:]) else { return .retry(reason, afterMilliseconds: delay) }
            var noted = message
            noted.notes = notes
            // Without the notes the next attempt only costs more (a second paid check), so a failed seal is no
            // reason to give the message up.
            let payload = try? sealedPayload(noted, expiresAt: fields?["expiresAt"]?.intValue ?? 0)
            return .retry(reason, afterMilliseconds: delay, payload: payload)
        }
        for sender in senders(for: message.channel) {
            do {
                _ = try await sender.deliver(message)
                return .done
            } catch {
                lastFailure = error
                notes.merge(error.keep) { $1 }
                if error.tryNextSender {
                    if error.retryable && retryWith == nil { retryWith = sender }
                    continue
                }
                if error.retryable { return retry(error.reason, with: sender) }
                if let retryWith { return retry(error.reason, with: retryWith) }
                return .abandon(error.reason)
            }
        }
        if let retryWith { return retry(lastFailure.reason, with: retryWith) }
        return .abandon(lastFailure.reason)
    }

    private static func delay(_ sender: any CodeSender, _ item: OutboxItem) -> Int64 {
        let (initial, cap) = sender.backoff
        return OutboxWorker.backoff(afterAttempts: item.attempts + 1, initial: initial * 1000, cap: cap * 1000)
    }

    private static func metadata(_ item: OutboxItem) -> Logger.Metadata {
        let kind = (try? JSONParser.parse(item.payload))?["kind"]?.stringValue ?? "unknown"
        return [("mail.id", .string(item.id)), ("mail.kind", .string(kind)), ("mail.attempts", .int(Int64(item.attempts + 1)))]
    }

    func stop() {
        for sender in senders { sender.stop() }
    }
}
