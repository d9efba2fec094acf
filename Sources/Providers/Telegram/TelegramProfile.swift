import AuthCore
import WireFormats

/// Who a Telegram credential names, in the three forms' vocabularies mapped onto one: the numeric user id (the
/// federated id in every form, so one person is one identity whichever way they come) and the profile Telegram
/// shares. Telegram never gives an email, and none is ever made up.
struct TelegramProfile: Sendable, Equatable {
    var userId: String
    var displayName: String?
    var username: String?
    var photoURL: String?

    /// Login Widget fields: `id`, `first_name`, `last_name`?, `username`?, `photo_url`?.
    static func widget(_ data: TelegramSignedData) throws(TelegramFailure) -> TelegramProfile {
        guard let id = userId(data.text("id")) else { throw .missingUser }
        return TelegramProfile(userId: id, displayName: name(first: data.text("first_name"), last: data.text("last_name")),
                               username: nonBlank(data.text("username")), photoURL: photo(data.text("photo_url")))
    }

    /// The Mini App `user` JSON object (`id`, `first_name`, `last_name`, `username`, `photo_url`, …).
    static func miniApp(_ data: TelegramSignedData) throws(TelegramFailure) -> TelegramProfile {
        guard let bytes = data.bytes("user"), case .object(let user)? = try? JSONParser.parse(bytes) else {
            throw .missingUser
        }
        guard let id = userId(user["id"]) else { throw .missingUser }
        return TelegramProfile(userId: id, displayName: name(first: user["first_name"]?.stringValue, last: user["last_name"]?.stringValue),
                               username: nonBlank(user["username"]?.stringValue), photoURL: photo(user["photo_url"]?.stringValue))
    }

    /// An OpenID Connect ID token: the numeric `id` claim (not the opaque `sub`), `name`, `preferred_username`,
    /// `picture`. nil without a usable `id`.
    static func idToken(_ claims: JSONObject) -> TelegramProfile? {
        guard let id = userId(claims["id"]) else { return nil }
        let display = nonBlank(claims["name"]?.stringValue)
            ?? name(first: claims["given_name"]?.stringValue, last: claims["family_name"]?.stringValue)
        return TelegramProfile(userId: id, displayName: display, username: nonBlank(claims["preferred_username"]?.stringValue),
                               photoURL: photo(claims["picture"]?.stringValue))
    }

    /// A positive integer, as a JSON number or as decimal digits; nil otherwise (a float, a negative number, text).
    static func userId(_ value: JSONValue?) -> String? {
        switch value {
        case .int(let number)? where number > 0: return String(number)
        case .string(let text)?: return userId(text)
        default: return nil
        }
    }

    static func userId(_ text: String?) -> String? {
        guard let text, text.utf8.count <= 20, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let number = Int64(text), number > 0 else { return nil }
        return String(number)
    }

    static func name(first: String?, last: String?) -> String? {
        let parts = [first, last].compactMap(nonBlank)
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    static func nonBlank(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// Telegram's userpic URLs are https; anything else (a `javascript:` URL in hand-made data signed by a
    /// careless bot) is dropped rather than handed to an app that may render it.
    static func photo(_ text: String?) -> String? {
        guard let url = nonBlank(text), url.lowercased().hasPrefix("https://") else { return nil }
        return url
    }

    func identity(rawUserInfo: String, echoed: [String: String]) -> VerifiedIdentity {
        VerifiedIdentity(providerId: .telegram, subject: userId, email: nil, displayName: displayName, photoUrl: photoURL,
                         screenName: username, rawUserInfo: rawUserInfo, echoedCredential: echoed)
    }
}
