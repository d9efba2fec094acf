import AuthCore
import Crypto
import Outbound
import WireFormats
import ProviderKit

extension AppleProvider {
    /// Apple's authorize URL for the web/Android flow: the first Services ID, `response_mode=form_post` (required
    /// when scopes are asked for), the state, and the SHA-256 hex of the raw nonce, as Apple's JS library sends.
    /// (Apple's flow has no PKCE; the nonce and the client secret bind the code instead.)
    public func authorizationURL(_ request: AuthorizationRequest) throws -> String {
        let (redirectUri, state, rawNonce) = (request.redirectUri, request.state, request.rawNonce)
        let (scopes, customParameters) = (request.scopes, request.customParameters)
        try requireEnabled()
        guard let clientId = configuration.servicesIds.first else {
            throw AuthError(.operationNotAllowed, "The redirect flow needs an apple.servicesIds entry")
        }
        let reserved: Set = ["client_id", "redirect_uri", "response_type", "response_mode", "state", "nonce", "scope"]
        var query = [("client_id", clientId), ("redirect_uri", redirectUri), ("response_type", "code id_token"),
                     ("response_mode", "form_post"), ("state", state), ("nonce", SHA256.hexDigest(rawNonce))]
        let scope = scopes.filter { $0 == "name" || $0 == "email" }
        if !scope.isEmpty { query.append(("scope", scope.joined(separator: " "))) }
        for (name, value) in customParameters.sorted(by: { $0.key < $1.key }) where !reserved.contains(name) {
            query.append((name, value))
        }
        return AppleEndpoints.url(configuration.baseURL, "/auth/authorize") + "?" + FormURLEncoding.encode(query)
    }

    /// Finishes the redirect flow: with the token endpoint configured, the code is exchanged server-side and the
    /// identity token Apple returns directly is the one verified; otherwise the posted identity token is. Either
    /// way the token's nonce must be the session's.
    public func completeRedirect(_ assertion: ProviderAssertion, binding: RedirectBinding,
                                 context: RequestContext) async throws -> VerifiedIdentity {
        try requireEnabled()
        var idToken = assertion["id_token"]
        var secrets: [String: String] = [:]
        if let tokens, let code = assertion["code"], !code.isEmpty, let clientId = configuration.servicesIds.first {
            let result: AppleTokenClient.Tokens
            do {
                result = try await tokens.exchange(code: code, clientId: clientId, redirectUri: binding.redirectUri)
            } catch {
                throw CredentialRefusal(.apple, .codeExchange,
                                        AuthError(.invalidIdpResponse, "Apple refused the authorization code (\(error))"))
            }
            idToken = result.idToken ?? idToken
            if let refreshToken = result.refreshToken { secrets = ["refreshToken": refreshToken, "clientId": clientId] }
        }
        guard let idToken, !idToken.isEmpty else {
            throw CredentialRefusal(.apple, .missing, AuthError(.invalidIdpResponse, "Apple returned no id_token"))
        }
        let token = try await verifier.verify(idToken, rawNonce: binding.rawNonce)
        return identity(token, idToken: idToken, userParameter: assertion["user"], secrets: secrets)
    }
}
