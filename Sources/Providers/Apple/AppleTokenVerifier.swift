import AuthCore
import Crypto
import Federation
import Outbound
import ProviderKit

/// Apple's rules for its signed tokens, expressed as federation-toolkit policies: identity tokens (RS256 from
/// `/auth/keys`, either Apple issuer, a configured bundle ID or Services ID, at most `maxTokenAgeSeconds` old,
/// bound to a single-use SHA-256-hex nonce) and server-to-server notifications (same keys, issuers and
/// audiences; no nonce, no age limit, the subject inside `events`). The checks themselves live in Federation.
struct AppleTokenVerifier: Sendable {
    /// Apple has signed with both issuers since June 2025.
    static let issuers: Set = ["https://appleid.apple.com", "https://account.apple.com"]

    let identityTokens: FederatedTokenVerifier
    let notifications: FederatedTokenVerifier

    init(configuration: AppleConfiguration, fetcher: any HTTPFetching, ledger: any NonceLedger, time: any TimeSource,
         log: any ProviderLog) {
        // One key cache for both kinds of token: Apple signs them with the same keys.
        let keys = JWKSCache(url: AppleEndpoints.url(configuration.baseURL, "/auth/keys"), algorithms: [.rs256],
                             fetcher: fetcher, time: time, refreshIntervalSeconds: configuration.keyRefreshIntervalSeconds,
                             log: log, fetchFailureMessage: "apple key fetch failed")
        identityTokens = FederatedTokenVerifier(policy: configuration.identityTokenPolicy, keys: keys, time: time, ledger: ledger)
        notifications = FederatedTokenVerifier(policy: configuration.notificationPolicy, keys: keys, time: time)
    }

    /// Verifies `idToken` against `rawNonce` and consumes the nonce (a second use of the nonce fails).
    func verify(_ idToken: String, rawNonce: String?) async throws -> AppleIdentityToken {
        let token = try await identityTokens.verify(idToken, rawNonce: rawNonce)
        // The policy requires a subject, so this refusal is never reached; it keeps a gap in the toolkit from
        // turning into an identity without one.
        guard let subject = token.subject else { throw Self.refusal(.format, .invalidIdpResponse, "id_token has no subject") }
        return AppleIdentityToken(subject: subject, audience: token.audience, issuedAt: token.issuedAt,
                                  expiresAt: token.expiresAt, claims: token.claims)
    }

    /// Apple refused the credential at `check` for a reason of its own (not a token check); the client sees
    /// `code` with `detail`.
    static func refusal(_ check: CredentialCheck, _ code: AuthError.Code, _ detail: String) -> CredentialRefusal {
        CredentialRefusal(.apple, check, AuthError(code, detail))
    }
}

extension AppleConfiguration {
    /// What an identity token from the native sheet or the web flow must satisfy.
    var identityTokenPolicy: TokenPolicy {
        TokenPolicy(provider: .apple, providerName: "Apple", issuers: AppleTokenVerifier.issuers, audiences: Set(audiences),
                    audienceDescription: "a configured bundle ID or Services ID", algorithms: [.rs256],
                    clockSkewSeconds: clockSkewSeconds, maxAgeSeconds: maxTokenAgeSeconds, nonce: NonceRule())
    }

    /// What a server-to-server notification must satisfy: it may be delivered late (its `exp` still bounds it)
    /// and is not bound to a client's nonce; its `jti` makes it single-use instead.
    var notificationPolicy: TokenPolicy {
        var policy = identityTokenPolicy
        policy.tokenName = "notification"
        policy.maxAgeSeconds = nil
        policy.requiresSubject = false
        policy.nonce = nil
        return policy
    }
}
