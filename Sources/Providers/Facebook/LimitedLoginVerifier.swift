import AuthCore
import Federation
import Outbound
import ProviderKit

/// Facebook Limited Login's OIDC `AuthenticationToken` (iOS), as a federation-toolkit policy: RS256 from
/// Limited Login's JWKS, issuer `https://www.facebook.com` (also `https://limited.facebook.com`, where Meta
/// moved the endpoints), audience the app ID, `exp`/`iat` with the clock skew, and a required single-use nonce:
/// the SHA-256 hex of the raw nonce the client sends (Firebase's convention), the raw value itself only when
/// `facebook.acceptRawNonce` allows it. The checks themselves live in Federation.
struct LimitedLoginVerifier: Sendable {
    static let issuers: Set = ["https://www.facebook.com", "https://limited.facebook.com"]

    let tokens: FederatedTokenVerifier

    init(configuration: FacebookConfiguration, fetcher: any HTTPFetching, ledger: any NonceLedger, time: any TimeSource,
         log: any ProviderLog) {
        let keys = JWKSCache(url: FacebookEndpoints.keys(configuration), algorithms: [.rs256], fetcher: fetcher, time: time,
                             refreshIntervalSeconds: configuration.keyRefreshIntervalSeconds, log: log,
                             fetchFailureMessage: "facebook key fetch failed")
        tokens = FederatedTokenVerifier(policy: configuration.limitedLoginPolicy, keys: keys, time: time, ledger: ledger)
    }

    /// Verifies `idToken` against `rawNonce` and consumes the nonce (a second use of the nonce fails).
    func verify(_ idToken: String, rawNonce: String?) async throws -> VerifiedIdentity {
        let token = try await tokens.verify(idToken, rawNonce: rawNonce)
        // The policy requires a subject; this keeps a gap in the toolkit from becoming an identity without one.
        guard let subject = token.subject else { throw AccessTokenChecks.refusal(.format, "id_token has no subject") }
        return FacebookIdentity.limitedLogin(token, subject: subject, idToken: idToken)
    }
}

extension FacebookConfiguration {
    /// What a Limited Login token must satisfy. No maximum age beyond `exp` (Facebook sets it an hour after
    /// `iat`): the single-use nonce already binds the token to one sign-in.
    var limitedLoginPolicy: TokenPolicy {
        TokenPolicy(provider: .facebook, providerName: "Facebook", issuers: LimitedLoginVerifier.issuers,
                    audiences: [appId], audienceDescription: "the configured Facebook app ID", algorithms: [.rs256],
                    clockSkewSeconds: clockSkewSeconds, maxAgeSeconds: nil,
                    nonce: NonceRule(presence: .required, acceptsRawClaim: acceptsRawNonce))
    }
}
