/// Telegram (`telegram.org`, a Gatehouse provider): the Login Widget's data, a Mini App's `initData`, or an
/// OpenID Connect ID token. The gateway checks the first two with the bot token, so they need no connection
/// to Telegram (docs/sign-in-with-telegram.md).
public enum TelegramAuthProvider {
    public static let id = "telegram.org"

    /// The Login Widget's fields as the query string of its redirect (`id=…&first_name=…&auth_date=…&hash=…`),
    /// every field Telegram sent.
    public static func credential(withLoginWidgetData queryString: String) -> OAuthCredential {
        OAuthCredential(providerID: id, idToken: nil, rawNonce: nil, accessToken: queryString)
    }

    /// The Login Widget's fields as received by `data-onauth` (every one of them, `hash` included).
    public static func credential(withLoginWidgetFields fields: [String: String]) -> OAuthCredential {
        let ordered = fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return credential(withLoginWidgetData: FormEncoding.encode(ordered))
    }

    /// `Telegram.WebApp.initData`, exactly as the Mini App received it (never `initDataUnsafe`).
    public static func credential(withMiniAppInitData initData: String) -> OAuthCredential {
        OAuthCredential(providerID: id, idToken: nil, rawNonce: nil, accessToken: initData)
    }

    /// An ID token from Telegram's OpenID Connect login, with the raw nonce whose SHA-256 it carries.
    public static func credential(withIDToken idToken: String, rawNonce: String) -> OAuthCredential {
        OAuthCredential(providerID: id, idToken: idToken, rawNonce: rawNonce, accessToken: nil)
    }
}
