import WireFormats
/// How a user's stored identities appear to clients: the `providerUserInfo` list of `accounts:lookup` and
/// the `firebase.identities` claim of ID tokens. Both are computed from the same stored rows by these two
/// pure functions, so the two views can never disagree.
public enum IdentityProjection {
    /// One `providerUserInfo` entry.
    public struct ProviderInfo: Sendable, Equatable {
        public var providerId: String
        public var rawId: String
        public var federatedId: String?
        public var email: String?
        public var displayName: String?
        public var photoUrl: String?
        public var screenName: String?
        public var phoneNumber: String?
    }

    /// Firebase's rules: a `password` entry when the user has an email and a password or email-link sign-in;
    /// a `phone` entry when the user has a phone number; one entry per linked federated identity.
    public static func providerInfos(user: UserRecord, identities: [ProviderIdentity]) -> [ProviderInfo] {
        var infos: [ProviderInfo] = []
        if let email = user.email, user.password != nil || user.emailLinkSignin {
            infos.append(ProviderInfo(providerId: ProviderID.password.rawValue, rawId: email, federatedId: email,
                                      email: email, displayName: user.displayName, photoUrl: user.photoUrl))
        }
        if let phone = user.phoneNumber {
            infos.append(ProviderInfo(providerId: "phone", rawId: phone, phoneNumber: phone))
        }
        for identity in identities {
            infos.append(ProviderInfo(providerId: identity.providerId, rawId: identity.federatedId,
                                      federatedId: identity.federatedId, email: identity.email,
                                      displayName: identity.displayName, photoUrl: identity.photoUrl,
                                      screenName: identity.screenName, phoneNumber: identity.phoneNumber))
        }
        return infos
    }

    /// The `firebase.identities` claim: `email` when the user has an email, `phone` when it has a phone
    /// number, and each federated provider's raw ids (`password` is never listed).
    public static func identitiesClaim(user: UserRecord, identities: [ProviderIdentity]) -> JSONObject {
        var claim = JSONObject()
        if let email = user.email { claim["email"] = .array([.string(email)]) }
        if let phone = user.phoneNumber { claim["phone"] = .array([.string(phone)]) }
        for identity in identities {
            let existing = claim[identity.providerId]?.arrayValue ?? []
            claim[identity.providerId] = .array(existing + [.string(identity.federatedId)])
        }
        return claim
    }
}
