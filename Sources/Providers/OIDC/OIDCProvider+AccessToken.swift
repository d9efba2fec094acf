import AuthCore
import Outbound
import ProviderKit
import WireFormats

/// `signInWithIdp` with an `access_token`. An access token is opaque to us, so the provider must vouch for it:
///
/// - with a token-info endpoint (Google), the provider says which client the token was issued to and when it
///   expires: the audience and expiry are checked as for an ID token, then UserInfo gives the profile and must
///   name the same subject;
/// - without one, only UserInfo can be asked, which proves the token is live but not whose app it was issued
///   to; that path is refused unless the operator switched it on for an issuer whose clients they control.
extension OIDCProvider {
    func identity(accessToken: String) async throws -> VerifiedIdentity {
        let echoed = ["oauthAccessToken": accessToken]
        if let tokenInfo = settings.endpoints.tokenInfo {
            let info = try await checkedTokenInfo(accessToken, at: tokenInfo)
            guard let subject = info["sub"]?.stringValue, !subject.isEmpty else {
                throw refusal(.format, "\(settings.name) did not name the access token's user")
            }
            let profile = try await userInfo(accessToken)
            guard profile["sub"]?.stringValue == subject else {
                throw refusal(.accessToken, "\(settings.name)'s UserInfo names another user than its token info")
            }
            var claims = info
            for (key, value) in profile { claims[key] = value }
            return mapping.identity(subject: subject, claims: claims, echoed: echoed)
        }
        guard settings.acceptsUserInfoAccessTokens else {
            throw refusal(.accessToken, "\(settings.providerId) accepts an id_token only; send the id_token")
        }
        let claims = try await userInfo(accessToken)
        guard let subject = mapping.subject(in: claims) else {
            throw refusal(.format, "\(settings.name)'s UserInfo has no \(settings.claims.subject) claim")
        }
        return mapping.identity(subject: subject, claims: claims, echoed: echoed)
    }

    /// Asks the token-info endpoint about the token (POSTed as a form, so it never sits in a URL or an access
    /// log) and checks the client it was issued to and its expiry.
    func checkedTokenInfo(_ accessToken: String, at url: String) async throws -> JSONObject {
        let request = OutboundRequest(method: "POST", url: url,
                                      headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                                      body: Array(FormURLEncoding.encode([("access_token", accessToken)]).utf8),
                                      timeout: .seconds(5))
        let info = try await json(request, endpoint: "token info")
        guard let audience = info["aud"]?.stringValue, settings.clientIds.contains(audience) else {
            throw refusal(.audience, "access_token audience is not a configured client ID")
        }
        let expiresAt = info["exp"]?.intValue ?? info["exp"]?.stringValue.flatMap { Int64($0) }
        if let expiresAt, expiresAt + settings.clockSkewSeconds <= time.nowSeconds {
            throw refusal(.expiry, "access_token has expired")
        }
        return info
    }

    /// The user's claims from UserInfo (OpenID Connect Core §5.3), asked with the access token.
    func userInfo(_ accessToken: String) async throws -> JSONObject {
        let url = try await endpoints.userInfo
        return try await json(OutboundRequest(url: url, headers: [("Authorization", "Bearer " + accessToken),
                                                                  ("Accept", "application/json")], timeout: .seconds(5)),
                              endpoint: "UserInfo")
    }

    /// A JSON object from one of the provider's endpoints, or a refusal saying why not. A provider that cannot
    /// be reached is a warning in the log (every access-token sign-in fails until it recovers); one that
    /// refuses the token is the client's problem and only refuses it.
    private func json(_ request: OutboundRequest, endpoint: StaticString) async throws -> JSONObject {
        let response: OutboundResponse
        do { response = try await fetcher.send(request) } catch {
            log.warning("oidc endpoint unreachable", [("endpoint", .string("\(endpoint)")),
                                                      ("reason", .string(String("\(error)".prefix(200))))])
            throw refusal(.accessToken, "\(settings.name) could not be reached to check the access_token; try again")
        }
        if response.status >= 500 || response.status == 429 {
            log.warning("oidc endpoint unavailable", [("endpoint", .string("\(endpoint)")),
                                                      ("http.status", .int(Int64(response.status)))])
            throw refusal(.accessToken, "\(settings.name) could not check the access_token; try again")
        }
        guard response.status == 200 else { throw refusal(.accessToken, "\(settings.name) refused the access_token") }
        guard case .object(let object)? = try? JSONParser.parse(response.body) else {
            throw refusal(.accessToken, "\(settings.name)'s \(endpoint) answer is not a JSON object")
        }
        return object
    }
}
