import AuthCore
import Crypto
import Federation
import Outbound
import ProviderKit
import WireFormats

/// Telegram's OpenID Connect ID tokens through the federation toolkit: keys from `<base>/.well-known/jwks.json`,
/// issuer `https://oauth.telegram.org`, audience a configured bot id (the OIDC client id), at most
/// `maxTokenAgeSeconds` old, bound to a single-use SHA-256-hex nonce (or the raw one behind a setting).
///
/// RS256 is Telegram's default; ES256 is accepted for bots switched to it in @BotFather. EdDSA and ES256K tokens
/// are refused (the toolkit verifies neither as a JWS).
struct TelegramTokenVerifier: Sendable {
    let identityTokens: FederatedTokenVerifier

    init(configuration: TelegramConfiguration, fetcher: any HTTPFetching, ledger: any NonceLedger, time: any TimeSource,
         log: any ProviderLog) {
        let keys = JWKSCache(url: TelegramEndpoints.url(configuration.baseURL, "/.well-known/jwks.json"),
                             algorithms: [.rs256, .es256], fetcher: fetcher, time: time,
                             refreshIntervalSeconds: configuration.keyRefreshIntervalSeconds, log: log,
                             fetchFailureMessage: "telegram key fetch failed")
        identityTokens = FederatedTokenVerifier(policy: configuration.identityTokenPolicy, keys: keys, time: time, ledger: ledger)
    }

    /// Verifies `idToken`, consumes its nonce and maps it to the Telegram user it names (the numeric `id` claim;
    /// the opaque `sub` stays in `rawUserInfo`, which the gateway stores with the identity and keeps across later
    /// Login Widget and Mini App sign-ins). A `phone_number` is normalised to E.164 and kept with the identity
    /// (its `phoneNumber`, and `rawUserInfo`): never the account's phone number, it never links accounts.
    func verify(_ idToken: String, rawNonce: String?, expectedAudience: String? = nil) async throws -> VerifiedIdentity {
        let token = try await identityTokens.verify(idToken, rawNonce: rawNonce)
        if let expectedAudience, token.audience != expectedAudience {
            throw CredentialRefusal(.telegram, .audience, AuthError(.invalidIdpResponse, "id_token audience is not the bot that started the sign-in"))
        }
        guard let profile = TelegramProfile.idToken(token.claims) else {
            throw CredentialRefusal(.telegram, .format,
                                    AuthError(.invalidIdpResponse, "id_token has no Telegram user id (the id claim)"))
        }
        var info = token.claims
        // A number that is not E.164 once normalised is dropped, never stored as it came.
        let phone = token.claims["phone_number"]?.stringValue.flatMap(PhoneNumber.e164)
        info["phone_number"] = phone.map(JSONValue.string)
        var identity = profile.identity(rawUserInfo: JSONSerializer.string(.object(info)), echoed: ["oauthIdToken": idToken])
        identity.phoneNumber = phone
        return identity
    }
}

extension TelegramConfiguration {
    /// What a Telegram ID token must satisfy.
    var identityTokenPolicy: TokenPolicy {
        TokenPolicy(provider: .telegram, providerName: "Telegram", issuers: [issuer], audiences: Set(clientIds),
                    audienceDescription: "a configured Telegram bot id", algorithms: [.rs256, .es256],
                    clockSkewSeconds: clockSkewSeconds, maxAgeSeconds: maxTokenAgeSeconds,
                    nonce: NonceRule(acceptsRawClaim: acceptRawNonce))
    }
}
