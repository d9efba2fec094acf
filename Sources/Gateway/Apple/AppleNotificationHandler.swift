import AuthCore
import Crypto
import ProviderApple
import Storage

/// `POST /gatehouse/v1/apple/notifications`: Apple's server-to-server events (register this URL for the
/// primary App ID). Each verified event is applied once per `jti`, in the same transaction that records the
/// `jti`, so a duplicate delivery (Apple does repeat) changes nothing and a failed one can be redelivered.
enum AppleNotificationHandler {
    static let eventKind = "apple.event"

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        guard let apple = services.providers.provider(.apple, as: AppleProvider.self) else { throw AuthError(.operationNotAllowed) }
        guard let payload = try context.body.string("payload"), !payload.isEmpty else {
            throw WireError.invalidPayload("payload is required", reason: "invalid")
        }
        let event = try await apple.serverEvent(payload)
        let now = services.time.nowMilliseconds
        let record = OneTimeTokenRecord(kind: eventKind, tokenHash: SHA256.hash(event.id), payload: "", createdAt: now,
                                        expiresAt: max(now, (event.expiresAt + apple.configuration.clockSkewSeconds) * 1000))
        let outcome: String
        do {
            outcome = try await services.store.write { tx -> String in
                try tx.insertOneTimeToken(record)
                return try apply(event, now: now, tx)
            }
        } catch StoreError.uniqueViolation(.oneTimeToken) {
            outcome = "duplicate"
        }
        services.logger.info("apple notification", [("event", .string(describe(event.kind))), ("outcome", .string(outcome))])
        return .json([:])
    }

    static func apply(_ event: AppleServerEvent, now: Int64, _ tx: any StoreTransaction) throws -> String {
        let settingKey = "apple.emailForwarding.\(event.subject)"
        switch event.kind {
        case .emailDisabled:
            try tx.setSetting(settingKey, value: "disabled")
            return "recorded"
        case .emailEnabled:
            try tx.setSetting(settingKey, value: nil)
            return "recorded"
        case .consentRevoked, .accountDeleted:
            guard let identity = try tx.identity(providerId: ProviderID.apple.rawValue, federatedId: event.subject),
                  var user = try tx.user(localId: identity.localId)
            else { return "unknown user" }
            _ = try tx.deleteIdentity(localId: user.localId, providerId: identity.providerId)
            if event.kind == .accountDeleted, user.password == nil, user.phoneNumber == nil, !user.emailLinkSignin,
               try tx.identities(localId: user.localId).isEmpty {
                _ = try tx.deleteUser(localId: user.localId)
                return "user deleted"
            }
            // Sessions made with Apple end: refresh tokens go and ID tokens issued before now stop verifying.
            try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
            try tx.updateUser(user)
            return "unlinked"
        case .other:
            return "ignored"
        }
    }

    static func describe(_ kind: AppleServerEvent.Kind) -> String {
        switch kind {
        case .emailDisabled: "email-disabled"
        case .emailEnabled: "email-enabled"
        case .consentRevoked: "consent-revoked"
        case .accountDeleted: "account-delete"
        case .other(let type): String(type.prefix(40))
        }
    }
}
