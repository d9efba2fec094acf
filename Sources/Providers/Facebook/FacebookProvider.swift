import AuthCore
import Outbound
import ProviderKit
import WireFormats

/// Facebook Login: classic access tokens (Android, web, iOS with tracking allowed) checked with Graph's
/// `debug_token` and `/me`; Limited Login ID tokens (iOS) checked with the federation toolkit; the web
/// redirect flow through Facebook's OAuth dialog; and the deauthorize and data-deletion callbacks.
///
/// Facebook is an untrusted email provider: its address never links accounts by itself.
public struct FacebookProvider: AssertionVerifier {
    public let configuration: FacebookConfiguration
    let graph: GraphClient
    let limitedLogin: LimitedLoginVerifier
    /// Deletion requests' status, shown on the status page whose URL Facebook gives the user.
    let records: any ProviderRecords
    let publicBaseURL: String
    let time: any TimeSource
    let log: any ProviderLog

    public init(configuration: FacebookConfiguration, fetcher: any HTTPFetching, ledger: any NonceLedger,
                records: any ProviderRecords, publicBaseURL: String, time: any TimeSource,
                log: any ProviderLog = SilentProviderLog()) {
        self.configuration = configuration
        self.graph = GraphClient(configuration: configuration, fetcher: fetcher, log: log)
        self.limitedLogin = LimitedLoginVerifier(configuration: configuration, fetcher: fetcher, ledger: ledger, time: time,
                                                 log: log)
        self.records = records
        self.publicBaseURL = publicBaseURL
        self.time = time
        self.log = log
    }

    public var id: ProviderID { .facebook }
    public var isEnabled: Bool { configuration.enabled }

    public var startupSummary: [(String, ProviderLogValue)] {
        [("app_id", .string(configuration.appId)), ("graph_version", .string(configuration.graphVersion)),
         ("accepts_raw_nonce", .bool(configuration.acceptsRawNonce)), ("redirect_flow", .bool(true))]
    }

    /// `id_token` (+ `nonce`) is Limited Login; `access_token` is a classic token. Only what was verified is
    /// echoed back.
    public func verify(_ assertion: ProviderAssertion, context: RequestContext) async throws -> VerifiedIdentity {
        try requireEnabled()
        if let idToken = assertion["id_token"], !idToken.isEmpty {
            return try await limitedLogin.verify(idToken, rawNonce: assertion["nonce"])
        }
        guard let accessToken = assertion["access_token"], !accessToken.isEmpty else {
            throw AccessTokenChecks.refusal(.missing, "access_token or id_token is missing; Facebook sign-in needs one of them")
        }
        return try await verifyAccessToken(accessToken)
    }

    /// Facebook's tokens and codes are a few hundred characters. Anything far longer is refused before it is
    /// sent to Graph with the app's credentials.
    static let maxCredentialLength = 4_096

    static func requirePlausible(_ value: String, _ name: String) throws(CredentialRefusal) {
        guard value.utf8.count <= maxCredentialLength else { throw AccessTokenChecks.refusal(.format, "\(name) is too long") }
    }

    /// The classic checks: `debug_token` (valid, this app, a user token, not expired), then the profile with
    /// `appsecret_proof`, which must be the token's user.
    func verifyAccessToken(_ accessToken: String) async throws -> VerifiedIdentity {
        try Self.requirePlausible(accessToken, "access_token")
        let secret = configuration.appSecret ?? ""
        let introspected = try await call(.debugToken, "/debug_token", [
            ("input_token", accessToken), ("access_token", "\(configuration.appId)|\(secret)")])
        guard let token = TokenIntrospection(debugTokenResponse: introspected) else {
            throw AccessTokenChecks.refusal(.format, "Facebook returned an unreadable debug_token answer")
        }
        let userId = try AccessTokenChecks.userId(of: token, appId: configuration.appId, now: time.nowSeconds)
        let fields = try await call(.profile, "/me", [
            ("fields", "id,name,first_name,last_name,email,picture.type(large)"), ("access_token", accessToken),
            ("appsecret_proof", AppSecretProof.proof(accessToken: accessToken, appSecret: secret))])
        guard let profile = GraphProfile(fields) else {
            throw AccessTokenChecks.refusal(.format, "Facebook returned a profile without an id")
        }
        try AccessTokenChecks.requireSameUser(profile, tokenUserId: userId)
        return FacebookIdentity.classic(profile, scopes: token.scopes, accessToken: accessToken)
    }

    /// One Graph call, its failures turned into refusals the client reads as `INVALID_IDP_RESPONSE : …`.
    func call(_ call: GraphClient.Call, _ path: String, _ query: [(String, String)]) async throws -> JSONObject {
        do { return try await graph.get(call, path, query) } catch {
            throw Self.refusal(error, during: call)
        }
    }

    static func refusal(_ failure: GraphFailure, during call: GraphClient.Call) -> CredentialRefusal {
        switch failure {
        case .unreachable(let reason):
            let detail = reason == "timeout" ? "Facebook did not answer in time; try again" : "Facebook could not be reached; try again"
            return AccessTokenChecks.refusal(.providerUnavailable, detail)
        case .unavailable(let status, let code):
            let cause = code.map { "Graph error \($0)" } ?? "HTTP \(status)"
            return AccessTokenChecks.refusal(.providerUnavailable, "Facebook is unavailable or rate limiting this app (\(cause)); try again later")
        case .refused(let status, let code, _):
            let cause = code.map { "Graph error \($0)" } ?? "HTTP \(status)"
            if call == .codeExchange {
                return AccessTokenChecks.refusal(.codeExchange, "Facebook refused the authorization code (\(cause))")
            }
            if call == .debugToken {
                return AccessTokenChecks.refusal(.tokenRejected, "Facebook refused to inspect the access token (\(cause))")
            }
            if code == 190 { return AccessTokenChecks.refusal(.tokenRejected, "Facebook access token is invalid or expired (\(cause))") }
            return AccessTokenChecks.refusal(.tokenRejected, "Facebook refused the \(call.rawValue) request (\(cause))")
        case .unreadable:
            return AccessTokenChecks.refusal(.format, "Facebook returned an unreadable \(call.rawValue) answer")
        }
    }
}
