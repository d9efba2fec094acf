import AuthCore
import Crypto
import ProviderKit
import WireFormats

/// The redirect flow (`createAuthUri` → the provider's sign-in page → `/__/auth/handler` → `signInWithIdp`).
///
/// With a client secret it is the authorization-code flow with PKCE: the provider sends a code back in the
/// query, which only the gateway can exchange (it holds the secret and the session's PKCE verifier). Without
/// one, the provider form-posts an ID token. Either way the ID token must carry the session's nonce.
extension OIDCProvider {
    static let reservedParameters: Set = ["client_id", "redirect_uri", "response_type", "response_mode", "state", "nonce",
                                          "scope", "code_challenge", "code_challenge_method"]

    public func authorizationURL(_ request: AuthorizationRequest) async throws -> String {
        try requireEnabled()
        let endpoint = try await endpoints.authorization
        guard let clientId = settings.clientIds.first else { throw AuthError(.operationNotAllowed) }
        var query = [("client_id", clientId), ("redirect_uri", request.redirectUri), ("state", request.state),
                     ("nonce", SHA256.hexDigest(request.rawNonce))]
        switch settings.responseType {
        case .code:
            query += [("response_type", "code"), ("code_challenge", request.codeChallenge),
                      ("code_challenge_method", "S256")]
        case .idToken:
            query += [("response_type", "id_token"), ("response_mode", "form_post")]
        }
        query.append(("scope", Self.scope(requested: request.scopes, configured: settings.scopes)))
        for (name, value) in request.customParameters.sorted(by: { $0.key < $1.key }) where !Self.reservedParameters.contains(name) {
            query.append((name, value))
        }
        let separator = endpoint.contains("?") ? "&" : "?"
        return endpoint + separator + FormURLEncoding.encode(query)
    }

    /// The client's scopes (always with `openid`), else the configured ones.
    static func scope(requested: [String], configured: [String]) -> String {
        guard !requested.isEmpty else { return configured.joined(separator: " ") }
        var scopes = ["openid"]
        for scope in requested where !scopes.contains(scope) { scopes.append(scope) }
        return scopes.joined(separator: " ")
    }

    public func completeRedirect(_ assertion: ProviderAssertion, binding: RedirectBinding,
                                 context: RequestContext) async throws -> VerifiedIdentity {
        try requireEnabled()
        if let code = assertion["code"], !code.isEmpty {
            guard settings.responseType == .code, let secret = settings.clientSecret, let clientId = settings.clientIds.first else {
                throw refusal(.codeExchange, "\(settings.providerId) has no client secret to exchange an authorization code")
            }
            let client = OIDCTokenClient(providerId: id, providerName: settings.name, fetcher: fetcher, log: log)
            let tokens = try await client.exchange(code: code, at: try await endpoints.token, clientId: clientId, secret: secret,
                                                   secretInBody: await endpoints.sendsSecretInBody,
                                                   redirectUri: binding.redirectUri, codeVerifier: binding.codeVerifier)
            return try await identity(idToken: tokens.idToken, rawNonce: binding.rawNonce, accessToken: tokens.accessToken)
        }
        guard let idToken = assertion["id_token"], !idToken.isEmpty else {
            throw refusal(.missing, "\(settings.name) returned neither a code nor an id_token")
        }
        return try await identity(idToken: idToken, rawNonce: binding.rawNonce, accessToken: nil)
    }
}
