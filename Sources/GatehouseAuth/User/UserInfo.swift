import Foundation

/// What a provider knows about a user (FirebaseAuth's `UserInfo`): each entry of `User.providerData`, and the
/// `User` itself (with `providerID` `firebase`).
public protocol UserInfo: Sendable {
    var providerID: String { get }
    /// The user's id at the provider (Apple's `sub`, the Telegram user id, the email for `password`).
    var uid: String { get }
    var displayName: String? { get }
    var photoURL: URL? { get }
    var email: String? { get }
    var phoneNumber: String? { get }
}

/// One entry of `User.providerData`, as `accounts:lookup` describes it and the session store keeps it.
struct ProviderUserInfo: UserInfo, Codable, Equatable {
    let providerID: String
    let uid: String
    let displayName: String?
    let email: String?
    let phoneNumber: String?
    let photoURL: URL?
}

/// When the account was created and last signed in (FirebaseAuth's `UserMetadata`).
public struct UserMetadata: Sendable, Codable, Equatable {
    public let creationDate: Date?
    public let lastSignInDate: Date?
}

/// The account as `accounts:lookup` describes it; what `User`'s profile properties read.
struct UserProfile: Sendable, Codable, Equatable {
    var uid: String
    var email: String?
    var displayName: String?
    var photoURL: URL?
    var phoneNumber: String?
    var isEmailVerified: Bool
    var providerData: [ProviderUserInfo]
    var metadata: UserMetadata

    /// From `users[0]` of an `accounts:lookup` answer.
    init?(lookup user: GatewayResponse) {
        guard let uid = user.string("localId") else { return nil }
        self.uid = uid
        email = user.string("email")
        displayName = user.string("displayName")
        photoURL = user.string("photoUrl").flatMap(URL.init(string:))
        phoneNumber = user.string("phoneNumber")
        isEmailVerified = user.bool("emailVerified")
        providerData = user.objects("providerUserInfo").compactMap { entry in
            guard let providerID = entry.string("providerId"), let rawID = entry.string("rawId") else { return nil }
            return ProviderUserInfo(providerID: providerID, uid: rawID, displayName: entry.string("displayName"),
                                    email: entry.string("email"), phoneNumber: entry.string("phoneNumber"),
                                    photoURL: entry.string("photoUrl").flatMap(URL.init(string:)))
        }
        func milliseconds(_ key: String) -> Date? { user.int64(key).map { Date(timeIntervalSince1970: Double($0) / 1000) } }
        metadata = UserMetadata(creationDate: milliseconds("createdAt"), lastSignInDate: milliseconds("lastLoginAt"))
    }

    /// Anonymous: no email, no phone number and no linked provider.
    var isAnonymous: Bool { email == nil && phoneNumber == nil && providerData.isEmpty }
}
