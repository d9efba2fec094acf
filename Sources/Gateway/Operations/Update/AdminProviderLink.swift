import AuthCore
import Storage

/// An admin's `linkProviderUserInfo` on `accounts:update` (firebase-admin Node's `providerToLink`): attaches a
/// federated identity to the account as given, replacing the account's identity of that provider if it has one.
///
/// Unlike a sign-in, this is not a merge decided from a credential (so not the linking engine's business): the
/// admin states a fact about one account and nothing else changes. The one rule kept is the store's: an
/// identity belongs to one account at most, so one owned by another account is
/// `FEDERATED_USER_ID_ALREADY_LINKED`. `password` and `phone` are not federated providers (set an email,
/// password or phone number instead): `INVALID_PROVIDER_ID`.
struct AdminProviderLink: Sendable, Equatable {
    var providerId: String
    var rawId: String
    var email: String?
    var displayName: String?
    var photoUrl: String?

    init(_ body: RequestBody) throws {
        guard let providerId = try body.string("providerId"), !providerId.isEmpty else { throw AuthError(.missingProviderId) }
        guard let rawId = try body.string("rawId"), !rawId.isEmpty else { throw AuthError(.missingRawId) }
        guard ![ProviderID.password.rawValue, "phone"].contains(providerId) else { throw AuthError(.invalidProviderId) }
        self.providerId = providerId
        self.rawId = rawId
        email = try body.string("email")
        displayName = try body.string("displayName").map {
            try ProfileLimits.check($0, field: "displayName", limit: ProfileLimits.displayName)
        }
        photoUrl = try body.string("photoUrl").map {
            try ProfileLimits.check($0, field: "photoUrl", limit: ProfileLimits.photoUrl)
        }
    }

    /// Writes the identity for `localId` inside the update's transaction.
    func apply(to localId: String, nowMilliseconds now: Int64, _ tx: any StoreTransaction) throws {
        let identity = ProviderIdentity(providerId: providerId, federatedId: rawId, localId: localId, email: email,
                                        displayName: displayName, photoUrl: photoUrl, linkedAt: now)
        if let owner = try tx.identity(providerId: providerId, federatedId: rawId), owner.localId != localId {
            throw AuthError(.federatedUserIdAlreadyLinked)
        }
        do {
            if try tx.identities(localId: localId).contains(where: { $0.providerId == providerId }) {
                try tx.updateIdentity(identity)
            } else {
                try tx.insertIdentity(identity)
            }
        } catch StoreError.uniqueViolation(.identity) {
            throw AuthError(.federatedUserIdAlreadyLinked)
        }
    }
}
