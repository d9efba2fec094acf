import AuthCore
import Outbound
import ProviderKit

/// Telegram sign-in in its three forms, one identity per Telegram user (the numeric user id):
///
/// - `access_token` = Login Widget data (`id=…&first_name=…&auth_date=…&hash=…`), HMAC-checked with SHA-256 of
///   the bot token;
/// - `access_token` = Mini App `initData` (recognised by its `user` field), HMAC-checked with the "WebAppData"
///   key, or Ed25519-checked with Telegram's key for allowlisted bots whose token the gateway does not hold;
/// - `id_token` + `nonce` from Telegram's OpenID Connect, and its code flow with PKCE through the redirect flow.
///
/// No email, ever: Telegram gives none, and a made-up one would link accounts it has no right to.
public struct TelegramProvider: AssertionVerifier, RedirectSignIn {
    public let configuration: TelegramConfiguration
    let signedData: TelegramDataVerifier
    let idTokens: TelegramTokenVerifier
    let tokenEndpoint: TelegramTokenClient

    /// - Parameters:
    ///   - payloads: single use of widget and Mini App data.
    ///   - nonces: single use of ID token nonces.
    public init(configuration: TelegramConfiguration, fetcher: any HTTPFetching, payloads: any NonceLedger,
                nonces: any NonceLedger, time: any TimeSource, log: any ProviderLog = SilentProviderLog()) throws {
        self.configuration = configuration
        self.signedData = try TelegramDataVerifier(configuration: configuration, ledger: payloads, time: time)
        self.idTokens = TelegramTokenVerifier(configuration: configuration, fetcher: fetcher, ledger: nonces, time: time, log: log)
        self.tokenEndpoint = TelegramTokenClient(baseURL: configuration.baseURL, fetcher: fetcher, log: log)
    }

    public var id: ProviderID { .telegram }
    public var isEnabled: Bool { configuration.enabled }

    public var startupSummary: [(String, ProviderLogValue)] {
        let bots = configuration.bots
        return [("login_widget_bots", .string(bots.filter(\.loginWidget).map(\.id).joined(separator: ","))),
                ("mini_app_bots", .string(bots.filter(\.miniApp).map(\.id).joined(separator: ","))),
                ("third_party_mini_app_bots", .string(configuration.thirdPartyBotIds.joined(separator: ","))),
                ("third_party_key", .string(configuration.thirdPartyKey.rawValue)),
                ("oidc_client_ids", .string(configuration.clientIds.joined(separator: ","))),
                ("redirect_flow", .bool(configuration.redirectBot != nil))]
    }

    /// An `id_token` is Telegram's OpenID Connect (an `access_token` next to it is Telegram's OAuth access token,
    /// not signed data); otherwise `access_token` holds Login Widget or Mini App data.
    public func verify(_ assertion: ProviderAssertion, context: RequestContext) async throws -> VerifiedIdentity {
        try requireEnabled()
        if let idToken = assertion["id_token"], !idToken.isEmpty {
            return try await idTokens.verify(idToken, rawNonce: assertion["nonce"])
        }
        if let data = assertion["access_token"], !data.isEmpty {
            return try await signedData.verify(data)
        }
        throw CredentialRefusal(.telegram, .missing, AuthError(.invalidIdpResponse,
            "Telegram sign-in needs access_token (Login Widget data or Mini App initData) or id_token with nonce"))
    }
}
