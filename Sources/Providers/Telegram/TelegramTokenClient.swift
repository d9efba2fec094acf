import AuthCore
import Outbound
import ProviderKit
import WireFormats

/// Telegram's token endpoint (`POST <base>/token`): the authorization code, the redirect URI and the PKCE
/// verifier for the ID token, with the bot's Web Login credentials in HTTP Basic authentication.
struct TelegramTokenClient: Sendable {
    /// Why no ID token came back.
    enum Failure: Error, Equatable {
        /// Telegram answered with an OAuth error (`invalid_grant`, `invalid_client`, …) or no `id_token`.
        case rejected(String)
        /// Telegram could not be reached or answered 5xx/429.
        case unavailable
    }

    let baseURL: String
    let fetcher: any HTTPFetching
    let log: any ProviderLog

    /// Exchanges `code` for Telegram's ID token.
    func exchange(code: String, bot: TelegramBot, redirectUri: String, codeVerifier: String) async throws(Failure) -> String {
        guard let secret = bot.clientSecret?.value else { throw .rejected("no client secret") }
        let form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectUri),
                    ("client_id", bot.id), ("code_verifier", codeVerifier)]
        let request = OutboundRequest(method: "POST", url: TelegramEndpoints.url(baseURL, "/token"),
                                      headers: [("Authorization", Self.basic(clientId: bot.id, secret: secret)),
                                                ("Content-Type", "application/x-www-form-urlencoded"),
                                                ("Accept", "application/json")],
                                      body: Array(FormURLEncoding.encode(form).utf8))
        let response: OutboundResponse
        do { response = try await fetcher.send(request) } catch {
            log.warning("telegram token endpoint unreachable", [("reason", .string(String("\(error)".prefix(200))))])
            throw .unavailable
        }
        let body = try? JSONParser.parse(response.body)
        if response.status >= 500 || response.status == 429 {
            log.warning("telegram token endpoint unavailable", [("http.status", .int(Int64(response.status)))])
            throw .unavailable
        }
        guard response.status == 200 else { throw .rejected(body?["error"]?.stringValue.map { String($0.prefix(64)) } ?? "HTTP \(response.status)") }
        guard let idToken = body?["id_token"]?.stringValue, !idToken.isEmpty else { throw .rejected("no id_token in the response") }
        return idToken
    }

    /// RFC 6749 §2.3.1: client id and secret, each form-encoded, joined by `:`, in base64.
    static func basic(clientId: String, secret: String) -> String {
        let pair = FormURLEncoding.encode([("", clientId)]).dropFirst() + ":" + FormURLEncoding.encode([("", secret)]).dropFirst()
        return "Basic " + Base64.encode(Array(pair.utf8))
    }
}
