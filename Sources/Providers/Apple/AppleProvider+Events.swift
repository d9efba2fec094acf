import AuthCore
import ProviderKit
import WireFormats

/// Apple's server-to-server notifications (register `<gateway>/gatehouse/v1/providers/apple.com/events` for the
/// primary App ID; the older `/gatehouse/v1/apple/notifications` still works). Apple posts `{"payload":"<JWS>"}`.
extension AppleProvider: ProviderEventReceiver {
    public func receiveEvents(_ request: ProviderHTTPRequest, context: RequestContext) async throws -> ProviderEventDelivery {
        guard let payload = request.jsonObject?["payload"]?.stringValue, !payload.isEmpty else {
            throw ProviderRequestError("payload is required")
        }
        let event = try await serverEvent(payload)
        return ProviderEventDelivery(events: Self.accountEvents(event), deliveryId: event.id,
                                     deliveryExpiresAt: (event.expiresAt + configuration.clockSkewSeconds) * 1000,
                                     label: event.kind.label)
    }

    /// Consent revoked and account deleted change the account. Hide My Email forwarding switched off or on
    /// changes nothing here: the relay address stays the user's address either way, and Apple only stops
    /// forwarding, which the app learns from bounces.
    static func accountEvents(_ event: AppleServerEvent) -> [AccountEvent] {
        switch event.kind {
        case .consentRevoked: return [.identityRevoked(subject: event.subject)]
        case .accountDeleted: return [.deletionRequested(subject: event.subject)]
        case .emailDisabled, .emailEnabled, .other: return []
        }
    }
}

extension AppleServerEvent.Kind {
    /// A fixed label for logs (Apple's event type; unknown types cut short).
    var label: String {
        switch self {
        case .emailDisabled: "email-disabled"
        case .emailEnabled: "email-enabled"
        case .consentRevoked: "consent-revoked"
        case .accountDeleted: "account-delete"
        case .other(let type): String(type.prefix(40))
        }
    }
}
