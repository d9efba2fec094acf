import AuthCore
import WireFormats

/// Something an identity provider told us about one of its users, server to server. The gateway applies every
/// event of every provider with the same written rule per type (`AccountEventRules` in the gateway), so the
/// consequences of "the user revoked your app" never differ between Apple and Facebook.
public enum AccountEvent: Sendable, Equatable {
    /// The user withdrew the app's access at the provider (Apple `consent-revoked`, Facebook deauthorize):
    /// the identity is unlinked and the user's sessions end; a user left with no way to sign in is disabled,
    /// not deleted (their data stays until they or an admin decide).
    case identityRevoked(subject: String)
    /// The user asked for their data to be deleted (Apple `account-delete`, Facebook data deletion): the
    /// identity and what it stored are deleted, and the user too when no other sign-in method remains;
    /// otherwise the user's sessions end.
    case deletionRequested(subject: String)
}

/// What applying one event did, reported back to the provider (for its reply or status page) and logged.
public enum AccountEventOutcome: String, Sendable, Equatable {
    /// No user has this identity (already unlinked or deleted, or never signed in here).
    case unknownSubject = "unknown_subject"
    case unlinked
    /// Unlinked, and the user had no other sign-in method left, so the account was disabled.
    case unlinkedAndDisabled = "unlinked_and_disabled"
    /// The identity's data was deleted; the user keeps other sign-in methods.
    case identityDeleted = "identity_deleted"
    /// The identity was the user's last sign-in method: the whole user was deleted.
    case userDeleted = "user_deleted"
    /// The delivery was seen before; nothing was changed again.
    case duplicate
}

/// A verified server-to-server delivery: the events it carries and how to answer the provider once they are
/// applied.
public struct ProviderEventDelivery: Sendable {
    public var events: [AccountEvent]
    /// Deliveries with an id are applied once: a repeated delivery (providers retry) changes nothing.
    public var deliveryId: String?
    /// Until when (milliseconds) the id must be remembered; after that the provider's own checks refuse it.
    /// The gateway remembers an id for at least a day, whatever this says.
    public var deliveryExpiresAt: Int64
    /// Builds the answer from what the events did (one outcome per event, in order).
    public var reply: @Sendable ([AccountEventOutcome]) async throws -> ProviderHTTPReply
    /// A non-secret label of what was delivered, for the log (`"account-delete"`).
    public var label: String

    public init(events: [AccountEvent], deliveryId: String? = nil, deliveryExpiresAt: Int64 = 0, label: String,
                reply: @escaping @Sendable ([AccountEventOutcome]) async throws -> ProviderHTTPReply = { _ in .json([:]) }) {
        self.events = events
        self.deliveryId = deliveryId
        self.deliveryExpiresAt = deliveryExpiresAt
        self.reply = reply
        self.label = label
    }
}

/// Capability: the provider receives server-to-server callbacks on
/// `POST /gatehouse/v1/providers/{providerId}/events`. It verifies the raw request (signature, issuer,
/// freshness) and returns typed events, or throws (`AuthError`/`CredentialRefusal`) to refuse it with a 400.
public protocol ProviderEventReceiver: CredentialProvider {
    func receiveEvents(_ request: ProviderHTTPRequest, context: RequestContext) async throws -> ProviderEventDelivery
}

/// Capability: the provider serves its own pages under `GET /gatehouse/v1/providers/{providerId}/{page}`
/// (e.g. a data-deletion status page). Unknown pages throw `ProviderPageError.notFound`.
public protocol ProviderPages: CredentialProvider {
    func page(_ request: ProviderHTTPRequest, context: RequestContext) async throws -> ProviderHTTPReply
}

public enum ProviderPageError: Error, Equatable {
    case notFound
}

/// A request to a provider's endpoint that is malformed as a request (a required field missing), as opposed to a
/// credential that fails verification (`CredentialRefusal`). The gateway answers it as Google answers malformed
/// bodies: `400 INVALID_ARGUMENT`, "Invalid JSON payload received. <detail>".
public struct ProviderRequestError: Error, Equatable, Sendable {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
}
