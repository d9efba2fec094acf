import AuthCore
import Crypto
import ProviderKit
import WireFormats

extension TelegramProvider {
    /// Scopes a client may add to the always-asked `openid profile`.
    static let optionalScopes: Set = ["phone", "telegram:bot_access"]

    /// Telegram's authorize URL (`<base>/auth`) for the code flow: the redirect bot as `client_id`, `openid profile`
    /// plus the optional scopes asked for, the state, the SHA-256 hex of the raw nonce, and the PKCE S256 challenge.
    public func authorizationURL(_ request: AuthorizationRequest) throws -> String {
        try requireEnabled()
        guard let bot = configuration.redirectBot else {
            throw AuthError(.operationNotAllowed,
                            "The Telegram redirect flow needs a bot with a Web Login client secret (telegram.bots[].clientSecretFile or GATEHOUSE_TELEGRAM_CLIENT_SECRET_<bot id>)")
        }
        let scopes = ["openid", "profile"] + Self.optionalScopes.sorted().filter(request.scopes.contains)
        var query = [("client_id", bot.id), ("redirect_uri", request.redirectUri), ("response_type", "code"),
                     ("scope", scopes.joined(separator: " ")), ("state", request.state),
                     ("nonce", SHA256.hexDigest(request.rawNonce)), ("code_challenge", request.codeChallenge),
                     ("code_challenge_method", "S256")]
        let reserved = Set(query.map(\.0))
        for (name, value) in request.customParameters.sorted(by: { $0.key < $1.key }) where !reserved.contains(name) {
            query.append((name, value))
        }
        return TelegramEndpoints.url(configuration.baseURL, "/auth") + "?" + FormURLEncoding.encode(query)
    }

    /// Finishes the code flow: the code, the session's redirect URI and PKCE verifier go to Telegram's token
    /// endpoint; the ID token it returns must be for the redirect bot and carry the session's nonce.
    public func completeRedirect(_ assertion: ProviderAssertion, binding: RedirectBinding,
                                 context: RequestContext) async throws -> VerifiedIdentity {
        try requireEnabled()
        guard let bot = configuration.redirectBot else {
            throw AuthError(.operationNotAllowed, "The Telegram redirect flow needs a bot with a Web Login client secret")
        }
        guard let code = assertion["code"], !code.isEmpty else {
            throw CredentialRefusal(.telegram, .missing, AuthError(.invalidIdpResponse, "Telegram returned no authorization code"))
        }
        let idToken: String
        do {
            idToken = try await tokenEndpoint.exchange(code: code, bot: bot, redirectUri: binding.redirectUri,
                                                       codeVerifier: binding.codeVerifier)
        } catch .rejected(let reason) {
            throw CredentialRefusal(.telegram, .codeExchange,
                                    AuthError(.invalidIdpResponse, "Telegram refused the authorization code (\(reason))"))
        } catch {
            // Down, slow, 5xx or 429: the code may still be good; logged as an outage, not as a refused code.
            throw CredentialRefusal(.telegram, .providerUnavailable,
                                    AuthError(.invalidIdpResponse, "Telegram's token endpoint could not be reached; try again"))
        }
        return try await idTokens.verify(idToken, rawNonce: binding.rawNonce, expectedAudience: bot.id)
    }
}
