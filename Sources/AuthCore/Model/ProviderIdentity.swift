/// A federated identity linked to a user: Firebase's `providerUserInfo` entry.
/// `(providerId, federatedId)` is unique across users and `(localId, providerId)` is unique per user:
/// the store's unique constraints are the final arbiter when two requests race.
public struct ProviderIdentity: Sendable, Equatable, Codable {
    /// For example `apple.com`, `facebook.com`.
    public var providerId: String
    /// The provider's stable subject (Firebase `rawId`).
    public var federatedId: String
    public var localId: String
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var screenName: String?
    public var phoneNumber: String?
    /// The provider's raw user info as JSON text, returned to clients as `rawUserInfo`.
    public var rawUserInfo: String?
    /// Provider secrets (for example Apple's refresh token) sealed with AES-256-GCM under the master key.
    public var sealedSecrets: [UInt8]?
    /// Milliseconds since the epoch.
    public var linkedAt: Int64

    public init(
        providerId: String, federatedId: String, localId: String, email: String? = nil,
        displayName: String? = nil, photoUrl: String? = nil, screenName: String? = nil,
        phoneNumber: String? = nil, rawUserInfo: String? = nil, sealedSecrets: [UInt8]? = nil, linkedAt: Int64
    ) {
        self.providerId = providerId
        self.federatedId = federatedId
        self.localId = localId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.screenName = screenName
        self.phoneNumber = phoneNumber
        self.rawUserInfo = rawUserInfo
        self.sealedSecrets = sealedSecrets
        self.linkedAt = linkedAt
    }
}
