import AuthCore
import Outbound
import ProviderKit
import WireFormats

/// The three GitHub endpoints sign-in needs. Every call is one request with a typed answer; what GitHub refuses
/// is the caller's to judge, and a GitHub that cannot be reached is a warning in the operator's log.
struct GitHubAPI: Sendable {
    enum Failure: Error, Equatable {
        /// GitHub answered, and the answer is no (an unknown token, a code already used): asking again won't help.
        case refused(String)
        /// GitHub could not be reached or answered 5xx/429.
        case unavailable
    }

    /// The user an access token belongs to, as GitHub's "check a token" answer names them.
    struct TokenOwner: Sendable, Equatable {
        var id: String
        var login: String?
        var name: String?
        var avatarURL: String?
        var raw: JSONObject
    }

    let settings: GitHubSettings
    let fetcher: any HTTPFetching
    let log: any ProviderLog

    /// "Check a token" (`POST /applications/{client_id}/token`, authenticated as the app): GitHub answers only for
    /// tokens issued to this app, which is the audience check an access token otherwise lacks. Without it, a token
    /// any other GitHub app obtained for its user would sign that user in here.
    func owner(of accessToken: String) async throws(Failure) -> TokenOwner {
        let body = JSONSerializer.bytes(["access_token": .string(accessToken)])
        let answer = try await call("POST", joined(settings.apiBaseURL, "/applications/\(settings.clientId)/token"),
                                    authorization: "Basic " + Base64.encode(Array("\(settings.clientId):\(settings.clientSecret)".utf8)),
                                    contentType: "application/json", body: body)
        guard answer["app"]?["client_id"]?.stringValue == settings.clientId, let user = answer["user"]?.objectValue else {
            throw .refused("the token belongs to another app")
        }
        let id: String? = user["id"]?.intValue.map { String($0) } ?? user["id"]?.stringValue
        guard let id, !id.isEmpty else { throw .refused("the token's user has no id") }
        let text = { (key: String) in user[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
        return TokenOwner(id: id, login: text("login"), name: text("name"), avatarURL: text("avatar_url"), raw: user)
    }

    /// The primary address and whether GitHub verified it, or nil when the token may not read addresses (no
    /// `user:email` scope) or there is none. An address is a nicety here, never a reason to fail the sign-in.
    func primaryEmail(_ accessToken: String) async -> (address: String, verified: Bool)? {
        guard case .array(let entries)? = try? await callValue("GET", joined(settings.apiBaseURL, "/user/emails"),
                                                               authorization: "Bearer " + accessToken) else { return nil }
        for case .object(let entry) in entries where entry["primary"]?.boolValue == true {
            guard let address = entry["email"]?.stringValue, !address.isEmpty else { return nil }
            return (address, entry["verified"]?.boolValue == true)
        }
        return nil
    }

    /// Exchanges a code from the redirect flow (with the session's PKCE verifier) for an access token.
    func exchange(code: String, redirectUri: String, codeVerifier: String) async throws(Failure) -> String {
        let form = [("client_id", settings.clientId), ("client_secret", settings.clientSecret), ("code", code),
                    ("redirect_uri", redirectUri), ("code_verifier", codeVerifier)]
        let answer = try await call("POST", joined(settings.baseURL, "/login/oauth/access_token"), authorization: nil,
                                    contentType: "application/x-www-form-urlencoded", body: Array(FormURLEncoding.encode(form).utf8))
        // GitHub reports a bad code with 200 and an `error` member.
        guard let token = answer["access_token"]?.stringValue, !token.isEmpty else {
            throw .refused(answer["error"]?.stringValue.map { String($0.prefix(64)) } ?? "no access_token")
        }
        return token
    }

    // MARK: One request

    private func call(_ method: String, _ url: String, authorization: String?, contentType: String? = nil,
                      body: [UInt8] = []) async throws(Failure) -> JSONObject {
        guard case .object(let object) = try await callValue(method, url, authorization: authorization,
                                                             contentType: contentType, body: body) else {
            throw .refused("GitHub's answer is not a JSON object")
        }
        return object
    }

    private func callValue(_ method: String, _ url: String, authorization: String?, contentType: String? = nil,
                           body: [UInt8] = []) async throws(Failure) -> JSONValue {
        // GitHub refuses API requests without a User-Agent.
        var headers = [("Accept", "application/json"), ("User-Agent", "Gatehouse"), ("X-GitHub-Api-Version", "2022-11-28")]
        if let authorization { headers.append(("Authorization", authorization)) }
        if let contentType { headers.append(("Content-Type", contentType)) }
        let response: OutboundResponse
        do {
            response = try await fetcher.send(OutboundRequest(method: method, url: url, headers: headers, body: body,
                                                              timeout: .seconds(10)))
        } catch {
            log.warning("github unreachable", [("reason", .string(String("\(error)".prefix(200))))])
            throw .unavailable
        }
        if response.status >= 500 || response.status == 429 {
            log.warning("github unavailable", [("http.status", .int(Int64(response.status)))])
            throw .unavailable
        }
        guard response.status == 200 else { throw .refused("HTTP \(response.status)") }
        guard let value = try? JSONParser.parse(response.body) else { throw .refused("GitHub's answer is not JSON") }
        return value
    }
}
