import AuthCore
import Federation
import Outbound
import ProviderKit
import WireFormats

/// An OpenID Connect identity provider: `signInWithIdp` with an `id_token` (and its nonce) or an `access_token`,
/// and the redirect flow (authorization code with PKCE, or a form-posted ID token).
///
/// Generic `oidc.<name>` providers, Google (`google.com`) and Microsoft (`microsoft.com`) are all this type with
/// different settings; nothing here knows which one it is.
public struct OIDCProvider: AssertionVerifier, RedirectSignIn {
    public let settings: OIDCProviderSettings
    let idTokens: FederatedTokenVerifier
    let endpoints: OIDCEndpoints
    let mapping: ClaimMapping
    let fetcher: any HTTPFetching
    let time: any TimeSource
    let log: any ProviderLog

    public init(settings: OIDCProviderSettings, fetcher: any HTTPFetching, ledger: any NonceLedger, time: any TimeSource,
                log: any ProviderLog = SilentProviderLog()) {
        let id = ProviderID(settings.providerId)
        self.settings = settings
        self.fetcher = fetcher
        self.time = time
        self.log = log
        let discovery = OpenIDDiscovery(issuer: settings.issuer, fetcher: fetcher, time: time,
                                        refreshIntervalSeconds: settings.keyRefreshIntervalSeconds, log: log)
        endpoints = OIDCEndpoints(configured: settings.endpoints, discovery: discovery, providerId: id, providerName: settings.name)
        let keys = endpoints.keySource(algorithms: settings.algorithms, fetcher: fetcher, time: time,
                                       refreshIntervalSeconds: settings.keyRefreshIntervalSeconds, log: log)
        idTokens = FederatedTokenVerifier(policy: settings.idTokenPolicy, keys: keys, time: time, ledger: ledger)
        mapping = ClaimMapping(providerId: id, names: settings.claims, emailLinking: settings.emailLinking)
    }

    public var id: ProviderID { ProviderID(settings.providerId) }
    public var isEnabled: Bool { settings.enabled }

    public var startupSummary: [(String, ProviderLogValue)] {
        [("issuer", .string(settings.issuer)), ("audiences", .string(settings.clientIds.joined(separator: ","))),
         ("redirect_flow", .string(settings.responseType == .code ? "code+pkce" : "id_token")),
         ("access_tokens", .bool(settings.endpoints.tokenInfo != nil || settings.acceptsUserInfoAccessTokens)),
         ("email_links", .bool(settings.emailLinking.verifiedEmails))]
    }

    /// `id_token` (with `nonce` under the provider's nonce rule) wins over `access_token` when both are sent.
    public func verify(_ assertion: ProviderAssertion, context: RequestContext) async throws -> VerifiedIdentity {
        try requireEnabled()
        if let idToken = assertion["id_token"], !idToken.isEmpty {
            return try await identity(idToken: idToken, rawNonce: assertion["nonce"], accessToken: assertion["access_token"])
        }
        if let accessToken = assertion["access_token"], !accessToken.isEmpty {
            return try await identity(accessToken: accessToken)
        }
        throw refusal(.missing, "id_token or access_token is missing in the request")
    }

    /// Verifies an ID token (signature, issuer, audience, times, nonce and its single use) and maps its claims.
    func identity(idToken: String, rawNonce: String?, accessToken: String?) async throws -> VerifiedIdentity {
        let token = try await idTokens.verify(idToken, rawNonce: rawNonce)
        guard let subject = mapping.subject(in: token.claims) else {
            throw refusal(.format, "id_token has no \(settings.claims.subject) claim")
        }
        var echoed = ["oauthIdToken": idToken]
        if let accessToken, !accessToken.isEmpty { echoed["oauthAccessToken"] = accessToken }
        return mapping.identity(subject: subject, claims: token.claims, echoed: echoed)
    }

    /// A refusal in the provider's name for a check of its own (not one of the toolkit's token checks).
    func refusal(_ check: CredentialCheck, _ detail: String) -> CredentialRefusal {
        CredentialRefusal(id, check, AuthError(.invalidIdpResponse, detail))
    }
}

extension OIDCProviderSettings {
    /// What an ID token must satisfy. The subject check is the toolkit's when the subject is `sub`; a mapped
    /// subject claim is checked by the provider after verification.
    var idTokenPolicy: TokenPolicy {
        TokenPolicy(provider: ProviderID(providerId), providerName: name, issuers: Set([issuer] + issuerAliases),
                    audiences: Set(clientIds), audienceDescription: "a configured client ID", algorithms: algorithms,
                    clockSkewSeconds: clockSkewSeconds, maxAgeSeconds: maxTokenAgeSeconds,
                    requiresSubject: claims.subject == "sub",
                    nonce: NonceRule(presence: noncePresence, acceptsRawClaim: acceptsRawNonce))
    }

    var noncePresence: NonceRule.Presence {
        if nonceRequired { return .required }
        return nonceClaimNeedsRawNonce ? .optional : .checkedWhenSent
    }
}
