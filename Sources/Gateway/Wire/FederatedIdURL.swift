/// Firebase's one provider-specific wire rule for identities: a Google account's `federatedId` is the URL
/// `https://accounts.google.com/<sub>` in `signInWithIdp` answers and in Firebase's own exports, while the
/// identity itself (and `rawId`) is the bare subject. Keyed by the provider id string, as Firebase keys it, so the wire layer needs no
/// provider module.
enum FederatedIdURL {
    static let googleProviderId = "google.com"
    static let googlePrefix = "https://accounts.google.com/"

    /// The `federatedId` a response carries for this identity.
    static func render(providerId: String, subject: String) -> String {
        providerId == googleProviderId ? googlePrefix + subject : subject
    }

    /// The subject a sign-in finds, from an imported id that may be Google's URL form (an export without `rawId`
    /// carries only that); other providers' ids are kept as given.
    static func subject(providerId: String, id: String) -> String {
        guard providerId == googleProviderId else { return id }
        for prefix in [googlePrefix, "http://accounts.google.com/", "accounts.google.com/"] where id.hasPrefix(prefix) {
            return String(id.dropFirst(prefix.count))
        }
        return id
    }
}
