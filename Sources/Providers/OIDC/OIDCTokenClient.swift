import AuthCore
import Outbound
import ProviderKit
import WireFormats

/// The token endpoint of the code flow (RFC 6749 §4.1.3 with RFC 7636's `code_verifier`): one form POST,
/// authenticated with the client secret, answered with an ID token. The secret goes in HTTP Basic (OpenID
/// Connect's default) or in the body when that is all the provider accepts; it is never logged.
struct OIDCTokenClient: Sendable {
    struct Tokens: Sendable, Equatable {
        var idToken: String
        var accessToken: String?
    }

    let providerId: ProviderID
    let providerName: String
    let fetcher: any HTTPFetching
    let log: any ProviderLog

    func exchange(code: String, at url: String, clientId: String, secret: String, secretInBody: Bool,
                  redirectUri: String, codeVerifier: String) async throws -> Tokens {
        var form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectUri),
                    ("code_verifier", codeVerifier), ("client_id", clientId)]
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
        if secretInBody {
            form.append(("client_secret", secret))
        } else {
            headers.append(("Authorization", "Basic " + Self.basicCredentials(clientId: clientId, secret: secret)))
        }
        let request = OutboundRequest(method: "POST", url: url, headers: headers, body: Array(FormURLEncoding.encode(form).utf8),
                                      timeout: .seconds(10))
        let response: OutboundResponse
        do { response = try await fetcher.send(request) } catch {
            log.warning("oidc token endpoint unreachable", [("reason", .string(String("\(error)".prefix(200))))])
            throw refusal("\(providerName)'s token endpoint could not be reached; try again")
        }
        let body = (try? JSONParser.parse(response.body))?.objectValue
        guard response.status == 200 else {
            if response.status >= 500 || response.status == 429 {
                log.warning("oidc token endpoint unavailable", [("http.status", .int(Int64(response.status)))])
            }
            let reason = body?["error"]?.stringValue.map { String($0.prefix(64)) } ?? "HTTP \(response.status)"
            throw refusal("\(providerName) refused the authorization code (\(reason))")
        }
        guard let idToken = body?["id_token"]?.stringValue, !idToken.isEmpty else {
            throw refusal("\(providerName)'s token endpoint returned no id_token (is the openid scope allowed?)")
        }
        return Tokens(idToken: idToken, accessToken: body?["access_token"]?.stringValue)
    }

    /// RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined and base64-encoded.
    static func basicCredentials(clientId: String, secret: String) -> String {
        let escape = { (text: String) in String(FormURLEncoding.encode([("", text)]).dropFirst()) }
        return Base64.encode(Array((escape(clientId) + ":" + escape(secret)).utf8))
    }

    private func refusal(_ detail: String) -> CredentialRefusal {
        CredentialRefusal(providerId, .codeExchange, AuthError(.invalidIdpResponse, detail))
    }
}
