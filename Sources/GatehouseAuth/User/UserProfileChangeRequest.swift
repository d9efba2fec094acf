import Foundation

/// A change of display name and photo URL (FirebaseAuth's `UserProfileChangeRequest`). Setting a property to nil
/// removes it from the account.
public final class UserProfileChangeRequest: @unchecked Sendable {
    private let user: User
    private let changes = Locked<(displayName: String??, photoURL: URL??)>((nil, nil))

    init(user: User) {
        self.user = user
    }

    public var displayName: String? {
        get { changes.current.displayName ?? user.displayName }
        set { changes.withLock { $0.displayName = .some(newValue) } }
    }

    public var photoURL: URL? {
        get { changes.current.photoURL ?? user.photoURL }
        set { changes.withLock { $0.photoURL = .some(newValue) } }
    }

    public func commitChanges() async throws {
        let (displayName, photoURL) = changes.current
        var fields: [String: any Sendable] = [:]
        var deleted: [String] = []
        if let displayName {
            if let name = displayName { fields["displayName"] = name } else { deleted.append("DISPLAY_NAME") }
        }
        if let photoURL {
            if let url = photoURL { fields["photoUrl"] = url.absoluteString } else { deleted.append("PHOTO_URL") }
        }
        if !deleted.isEmpty { fields["deleteAttribute"] = deleted }
        guard !fields.isEmpty else { return }
        try await user.change(fields)
        // The gateway keeps the session on a profile change, so the ID token still carries the old name and picture
        // until it is renewed: renew it now, as a backend reading `name` from it expects.
        _ = try await user.getIDToken(forcingRefresh: true)
    }
}
