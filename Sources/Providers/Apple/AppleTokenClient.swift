import AuthCore
import Outbound
import WireFormats
import ProviderKit

/// Apple's `/auth/token` (code exchange) and `/auth/revoke`, form-encoded as Apple requires (a JSON body
/// is answered with `invalid_client`). An endpoint that cannot be reached or answers 5xx/429 is a warning in
/// the log; what Apple refuses is for the caller to judge.
public struct AppleTokenClient: Sendable {
    /// What a code exchange returns that the gateway keeps or checks.
    public struct Tokens: Sendable, Equatable {
        public var refreshToken: String?
        public var accessToken: String?
        public var idToken: String?
    }

    /// Why Apple did not do what was asked.
    public enum Failure: Error, Equatable {
        /// Apple answered 4xx with an OAuth error (`invalid_grant`, `invalid_client`, …): asking again will not help.
        case rejected(String)
        /// Apple could not be reached or answered 5xx: worth retrying later.
        case unavailable
    }

    let baseURL: String
    let secret: AppleClientSecret
    let fetcher: any HTTPFetching
    let log: any ProviderLog

    public init(baseURL: String, secret: AppleClientSecret, fetcher: any HTTPFetching,
                log: any ProviderLog = SilentProviderLog()) {
        self.baseURL = baseURL
        self.secret = secret
        self.fetcher = fetcher
        self.log = log
    }

    /// Exchanges an authorization code issued to `clientId` (`redirectUri` only for web codes).
    public func exchange(code: String, clientId: String, redirectUri: String?) async throws(Failure) -> Tokens {
        var form = [("client_id", clientId), ("client_secret", try clientSecret(clientId)), ("code", code),
                    ("grant_type", "authorization_code")]
        if let redirectUri { form.append(("redirect_uri", redirectUri)) }
        let body = try await post("/auth/token", form)
        guard case .object(let o)? = try? JSONParser.parse(body) else { throw .rejected("unreadable token response") }
        return Tokens(refreshToken: o["refresh_token"]?.stringValue, accessToken: o["access_token"]?.stringValue,
                      idToken: o["id_token"]?.stringValue)
    }

    /// Revokes a refresh or access token issued to `clientId`. Apple answers 200 also for tokens already invalid.
    public func revoke(token: String, hint: String, clientId: String) async throws(Failure) {
        _ = try await post("/auth/revoke", [("client_id", clientId), ("client_secret", try clientSecret(clientId)),
                                            ("token", token), ("token_type_hint", hint)])
    }

    private func clientSecret(_ clientId: String) throws(Failure) -> String {
        do { return try secret.secret(for: clientId) } catch { throw .rejected("client secret could not be signed") }
    }

    private func post(_ path: String, _ form: [(String, String)]) async throws(Failure) -> [UInt8] {
        let request = OutboundRequest(method: "POST", url: AppleEndpoints.url(baseURL, path),
                                      headers: [("Content-Type", "application/x-www-form-urlencoded"),
                                                ("Accept", "application/json")],
                                      body: Array(FormURLEncoding.encode(form).utf8))
        let response: OutboundResponse
        do { response = try await fetcher.send(request) } catch {
            log.warning("apple token endpoint unreachable", [("endpoint", .string(path)),
                                                             ("reason", .string(String("\(error)".prefix(200))))])
            throw .unavailable
        }
        if response.status == 200 { return response.body }
        if response.status >= 500 || response.status == 429 {
            log.warning("apple token endpoint unavailable", [("endpoint", .string(path)),
                                                             ("http.status", .int(Int64(response.status)))])
            throw .unavailable
        }
        let code = (try? JSONParser.parse(response.body))?["error"]?.stringValue ?? "HTTP \(response.status)"
        throw .rejected(code)
    }
}
