import AuthCore
import Foundation
import ProviderKit

/// Phone sign-in's rules: code length and lifetime, the attempt limit per code, send limits per number, per
/// client network and per project, test numbers, and the message text. The flows themselves are the gateway's
/// (`PhoneAccounts`).
public struct PhoneProvider: PhoneAccounts {
    public let settings: PhoneSettings
    public let isEnabled: Bool
    let counters: any AbuseCounters

    public init(settings: PhoneSettings, enabled: Bool, counters: any AbuseCounters) {
        self.settings = settings
        self.isEnabled = enabled
        self.counters = counters
    }

    public var id: ProviderID { .phone }
    public var codeLength: Int { settings.codeLength }
    public var codeLifetimeSeconds: Int64 { settings.codeLifetimeSeconds }
    public var senderOrder: [String] { settings.senders }

    public var startupSummary: [(String, ProviderLogValue)] {
        [("code_length", .int(Int64(settings.codeLength))), ("code_lifetime_s", .int(settings.codeLifetimeSeconds)),
         ("test_numbers", .int(Int64(settings.testNumbers.count))),
         ("senders", .string(settings.senders.isEmpty ? "registration order" : settings.senders.joined(separator: ",")))]
    }

    public func testCode(for phoneNumber: String) -> String? { settings.testNumbers[phoneNumber] }

    /// Refused sends are not counted, so one exhausted limit never eats into another.
    public func admitSend(to phoneNumber: String, _ context: RequestContext) async throws {
        let events = [
            LimitedEvent(key: "phone.send.ip:" + context.clientNetwork, limit: settings.sendsPerIPPerHour, windowSeconds: 3600),
            LimitedEvent(key: "phone.send.number:" + phoneNumber, limit: settings.sendsPerPhonePerHour, windowSeconds: 3600),
            LimitedEvent(key: "phone.send.all", limit: settings.sendsPerHour, windowSeconds: 3600),
        ]
        guard try await counters.admit(events) else { throw AuthError(.tooManyAttemptsTryLater) }
    }

    /// Under the same per-network budget as real sends (`sendsPerIPPerHour`), so a client cannot open sessions
    /// without end and guess a reviewer's fixed code `attemptsPerCode` times in each. Nothing is sent, so neither
    /// the per-number limit nor the project-wide cap applies.
    public func admitTestNumberSession(_ context: RequestContext) async throws {
        let event = LimitedEvent(key: "phone.send.ip:" + context.clientNetwork, limit: settings.sendsPerIPPerHour,
                                 windowSeconds: 3600)
        guard try await counters.admit([event]) else { throw AuthError(.tooManyAttemptsTryLater) }
    }

    /// Counted in a day-long window keyed by the session: a session lives minutes, so it meets at most two
    /// windows (one that crosses midnight UTC gets at most twice the attempts, still a handful of guesses at a
    /// code with a million values).
    public func beginCodeAttempt(session: String) async throws -> Bool {
        try await counters.admit([LimitedEvent(key: "phone.verify:" + session, limit: settings.attemptsPerCode,
                                               windowSeconds: 86_400)])
    }

    public func composeCodeMessage(code: String, phoneNumber: String, locale: String?) -> String {
        settings.messageTemplate.replacingOccurrences(of: "{code}", with: code)
    }
}
