import AuthCore
import ProviderKit
import WireFormats

/// GitHub sign-in: `signInWithIdp` with the `access_token` a client got from GitHub (what Firebase's
/// `GitHubAuthProvider.credential(token)` sends), and the redirect flow (authorization code with PKCE).
///
/// An access token proves nothing by itself, so GitHub is asked whether it was issued to *this* app (and to whom)
/// before anything else. GitHub verifies addresses, but Firebase does not trust it as an email provider (the
/// address is not GitHub's mailbox), so a verified address is reported verified and never links accounts.
public struct GitHubProvider: AssertionVerifier, RedirectSignIn {
    let settings: GitHubSettings
    let api: GitHubAPI

    public var id: ProviderID { .github }
    public var isEnabled: Bool { settings.enabled }
    public var startupSummary: [(String, ProviderLogValue)] { [("client_id", .string(settings.clientId))] }

    public func verify(_ assertion: ProviderAssertion, context: RequestContext) async throws -> VerifiedIdentity {
        try requireEnabled()
        guard let accessToken = assertion["access_token"], !accessToken.isEmpty else {
            throw refusal(.missing, "access_token is missing; GitHub sign-in needs the OAuth access token")
        }
        return try await identity(accessToken: accessToken)
    }

    func identity(accessToken: String) async throws -> VerifiedIdentity {
        let owner: GitHubAPI.TokenOwner
        do { owner = try await api.owner(of: accessToken) } catch {
            switch error {
            case .unavailable: throw refusal(.accessToken, "GitHub could not be reached to check the access_token; try again")
            case .refused: throw refusal(.audience, "access_token was not issued to this app's GitHub client id")
            }
        }
        let email = await api.primaryEmail(accessToken).map { primary -> VerifiedIdentity.Email in
            primary.verified ? .verifiedNotForLinking(primary.address.lowercased()) : .untrusted(primary.address.lowercased())
        }
        return VerifiedIdentity(providerId: .github, subject: owner.id, email: email, displayName: owner.name ?? owner.login,
                                photoUrl: owner.avatarURL, screenName: owner.login,
                                rawUserInfo: JSONSerializer.string(.object(owner.raw)),
                                echoedCredential: ["oauthAccessToken": accessToken])
    }

    // MARK: Redirect flow

    public func authorizationURL(_ request: AuthorizationRequest) throws -> String {
        try requireEnabled()
        let scopes = request.scopes.isEmpty ? settings.scopes : request.scopes
        var query = [("client_id", settings.clientId), ("redirect_uri", request.redirectUri), ("state", request.state),
                     ("scope", scopes.joined(separator: " ")), ("code_challenge", request.codeChallenge),
                     ("code_challenge_method", "S256")]
        let reserved: Set = ["client_id", "redirect_uri", "state", "scope", "code_challenge", "code_challenge_method"]
        for (name, value) in request.customParameters.sorted(by: { $0.key < $1.key }) where !reserved.contains(name) {
            query.append((name, value))
        }
        return joined(settings.baseURL, "/login/oauth/authorize") + "?" + FormURLEncoding.encode(query)
    }

    /// GitHub sends the browser back with `code` and `state` in the query; the gateway has checked the state
    /// against the session, and the session's PKCE verifier binds the code to it.
    public func completeRedirect(_ assertion: ProviderAssertion, binding: RedirectBinding,
                                 context: RequestContext) async throws -> VerifiedIdentity {
        try requireEnabled()
        guard let code = assertion["code"], !code.isEmpty else { throw refusal(.missing, "GitHub returned no code") }
        let accessToken: String
        do {
            accessToken = try await api.exchange(code: code, redirectUri: binding.redirectUri, codeVerifier: binding.codeVerifier)
        } catch {
            throw refusal(.codeExchange, error == .unavailable ? "GitHub could not be reached; try again"
                                                               : "GitHub refused the authorization code")
        }
        return try await identity(accessToken: accessToken)
    }

    private func refusal(_ check: CredentialCheck, _ detail: String) -> CredentialRefusal {
        CredentialRefusal(.github, check, AuthError(.invalidIdpResponse, detail))
    }
}
