import AuthCore
import Federation
import Outbound
import ProviderKit

/// A provider's endpoints: each one as configured, else from the issuer's discovery document (fetched only when
/// an endpoint is needed that the configuration does not give, cached and rate-limited by the toolkit).
struct OIDCEndpoints: Sendable {
    let configured: OIDCProviderSettings.Endpoints
    let discovery: OpenIDDiscovery
    let providerId: ProviderID
    let providerName: String

    /// The keys: a fixed JWKS URL when configured, else the one discovery names.
    func keySource(algorithms: Set<SignatureAlgorithm>, fetcher: any HTTPFetching, time: any TimeSource,
                   refreshIntervalSeconds: Int64, log: any ProviderLog) -> any SigningKeySource {
        if let jwks = configured.jwks {
            return JWKSCache(url: jwks, algorithms: algorithms, fetcher: fetcher, time: time,
                             refreshIntervalSeconds: refreshIntervalSeconds, log: log, fetchFailureMessage: "oidc key fetch failed")
        }
        return DiscoveredKeys(discovery: discovery, algorithms: algorithms, fetcher: fetcher, time: time,
                              refreshIntervalSeconds: refreshIntervalSeconds, log: log)
    }

    var authorization: String { get async throws { try await resolve(configured.authorization, \.authorizationEndpoint, "authorization") } }
    var token: String { get async throws { try await resolve(configured.token, \.tokenEndpoint, "token") } }
    var userInfo: String { get async throws { try await resolve(configured.userInfo, \.userInfoEndpoint, "UserInfo") } }

    /// How to authenticate at the token endpoint: HTTP Basic (OpenID Connect's default) unless the discovery
    /// document lists only `client_secret_post`.
    var sendsSecretInBody: Bool {
        get async {
            guard configured.token == nil, let document = try? await discovery.current() else { return false }
            let methods = document.tokenEndpointAuthMethods
            return !methods.isEmpty && !methods.contains("client_secret_basic") && methods.contains("client_secret_post")
        }
    }

    private func resolve(_ fixed: String?, _ member: KeyPath<DiscoveryDocument, String?>, _ name: String) async throws -> String {
        if let fixed { return fixed }
        let document: DiscoveryDocument
        do { document = try await discovery.current() } catch {
            throw CredentialRefusal(providerId, .keyFetch,
                                    AuthError(.invalidIdpResponse, "\(providerName)'s OpenID configuration could not be fetched; try again"))
        }
        guard let url = document[keyPath: member] else {
            throw CredentialRefusal(providerId, .missing,
                                    AuthError(.invalidIdpResponse, "\(providerName) publishes no \(name) endpoint"))
        }
        return url
    }
}
