import AuthCore
import ProviderKit
import WireFormats

/// Web login through Facebook's OAuth dialog: `createAuthUri` → the dialog → Facebook redirects the browser to
/// the gateway's `/__/auth/handler?code=…&state=…` → `signInWithIdp` with the `sessionId`, where the code is
/// exchanged at Graph's `oauth/access_token` with the app secret and the PKCE verifier, and the resulting
/// access token passes the classic checks.
extension FacebookProvider: RedirectSignIn {
    /// Always asked for; scopes from `oauthScope` are added.
    static let defaultScopes = ["public_profile", "email"]

    public func authorizationURL(_ request: AuthorizationRequest) throws -> String {
        try requireEnabled()
        var scopes = Self.defaultScopes
        for scope in request.scopes where !scopes.contains(scope) { scopes.append(scope) }
        let reserved: Set = ["client_id", "redirect_uri", "response_type", "state", "scope", "code_challenge",
                             "code_challenge_method"]
        var query = [("client_id", configuration.appId), ("redirect_uri", request.redirectUri), ("response_type", "code"),
                     ("state", request.state), ("scope", scopes.joined(separator: ",")),
                     ("code_challenge", request.codeChallenge), ("code_challenge_method", "S256")]
        for (name, value) in request.customParameters.sorted(by: { $0.key < $1.key }) where !reserved.contains(name) {
            query.append((name, value))
        }
        return FacebookEndpoints.dialog(configuration) + "?" + FormURLEncoding.encode(query)
    }

    /// The gateway already checked the state; the code is bound to this session's redirect URI and PKCE verifier.
    public func completeRedirect(_ assertion: ProviderAssertion, binding: RedirectBinding,
                                 context: RequestContext) async throws -> VerifiedIdentity {
        try requireEnabled()
        guard let code = assertion["code"], !code.isEmpty else {
            throw AccessTokenChecks.refusal(.missing, "Facebook returned no authorization code")
        }
        try Self.requirePlausible(code, "code")
        var query = [("client_id", configuration.appId), ("redirect_uri", binding.redirectUri),
                     ("client_secret", configuration.appSecret ?? ""), ("code", code)]
        if !binding.codeVerifier.isEmpty { query.append(("code_verifier", binding.codeVerifier)) }
        let exchanged = try await call(.codeExchange, "/oauth/access_token", query)
        guard let accessToken = exchanged["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw AccessTokenChecks.refusal(.codeExchange, "Facebook's code exchange returned no access_token")
        }
        return try await verifyAccessToken(accessToken)
    }
}
