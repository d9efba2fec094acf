import AuthCore
import Crypto
import Federation
import ProviderKit
import WireFormats

/// One server-to-server notification from Apple (`{"payload":"<JWS>"}` posted to the registered URL), after
/// its signature, issuer, audience and expiry were checked with the same keys as identity tokens.
public struct AppleServerEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Hide My Email forwarding turned off or back on.
        case emailDisabled, emailEnabled
        /// The user stopped using Sign in with Apple with the app.
        case consentRevoked
        /// The Apple account was deleted.
        case accountDeleted
        /// A type this gateway does not know; acknowledged and ignored.
        case other(String)

        init(_ type: String) {
            switch type {
            case "email-disabled": self = .emailDisabled
            case "email-enabled": self = .emailEnabled
            case "consent-revoked": self = .consentRevoked
            case "account-delete", "account-deleted": self = .accountDeleted
            default: self = .other(type)
            }
        }
    }

    /// The notification's unique id (deliveries can repeat; handle each `jti` once).
    public var id: String
    public var kind: Kind
    /// The Apple user (`sub`, the identity's federated id).
    public var subject: String
    /// When the notification may be forgotten (seconds): after `exp` a replay fails verification anyway.
    public var expiresAt: Int64
}

extension AppleProvider {
    /// Verifies a notification JWS and decodes its event (the `events` claim is JSON text inside the JWT).
    public func serverEvent(_ payload: String) async throws -> AppleServerEvent {
        try requireEnabled()
        let token = try await verifier.notifications.verify(payload)
        let claims = token.claims
        var events = claims["events"]?.objectValue
        if events == nil, let text = claims["events"]?.stringValue { events = (try? JSONParser.parse(text))?.objectValue }
        guard let events, let type = events["type"]?.stringValue, let subject = events["sub"]?.stringValue, !subject.isEmpty
        else { throw AppleTokenVerifier.refusal(.format, .invalidIdpResponse, "notification has no event") }
        let id = claims["jti"]?.stringValue ?? Hex.encode(SHA256.hash(payload))
        return AppleServerEvent(id: id, kind: .init(type), subject: subject, expiresAt: token.expiresAt)
    }
}
