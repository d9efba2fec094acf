import AuthCore
import Crypto
import Outbound
import ProviderKit
import Synchronization
import WireFormats

/// The members of an OpenID Provider's discovery document the toolkit uses.
public struct DiscoveryDocument: Sendable, Equatable {
    /// The issuer, equal to the one configured (OpenID Connect Discovery 1.0 §4.3).
    public var issuer: String
    /// Where the provider publishes its signing keys.
    public var jwksURI: String
    /// Where a browser is sent to sign in (the redirect flow); nil when the document names none.
    public var authorizationEndpoint: String?
    /// Where an authorization code is exchanged for tokens.
    public var tokenEndpoint: String?
    /// Where an access token is exchanged for the user's claims (OpenID Connect Core §5.3).
    public var userInfoEndpoint: String?
    /// How the token endpoint wants the client to authenticate (`client_secret_basic`, `client_secret_post`);
    /// empty when the document does not say, which means `client_secret_basic` (Discovery §3).
    public var tokenEndpointAuthMethods: [String]

    public init(issuer: String, jwksURI: String, authorizationEndpoint: String? = nil, tokenEndpoint: String? = nil,
                userInfoEndpoint: String? = nil, tokenEndpointAuthMethods: [String] = []) {
        self.issuer = issuer
        self.jwksURI = jwksURI
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.userInfoEndpoint = userInfoEndpoint
        self.tokenEndpointAuthMethods = tokenEndpointAuthMethods
    }
}

/// An issuer's discovery document (`<issuer>/.well-known/openid-configuration`), for generic OpenID Connect
/// providers configured by issuer only. Small and cached like a JWKS: reused for its `Cache-Control` lifetime,
/// re-fetched at most once per interval, the last good copy kept when the issuer is unreachable.
///
/// A document whose `issuer` differs from the configured one is refused (Discovery §4.3): a document served
/// from one host may not hand out keys for another issuer's tokens.
public final class OpenIDDiscovery: Sendable {
    public var url: String { document.url }
    private let document: CachedDocument<DiscoveryDocument>
    private let log: any ProviderLog

    public init(issuer: String, fetcher: any HTTPFetching, time: any TimeSource, refreshIntervalSeconds: Int64,
                log: any ProviderLog = SilentProviderLog()) {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        self.document = CachedDocument(url: base + "/.well-known/openid-configuration", fetcher: fetcher, time: time,
                                       refreshIntervalSeconds: refreshIntervalSeconds) {
            bytes throws(FetchProblem) in try Self.parse(bytes, expectedIssuer: issuer)
        }
        self.log = log
    }

    /// The current document; `.unavailable` when it was never fetched successfully.
    public func current() async throws(KeyLookupFailure) -> DiscoveryDocument {
        let lookup = await document.current()
        if let problem = lookup.fetchFailure, lookup.startedFetch {
            log.warning("openid discovery failed", [("reason", .string(problem.reason)),
                                                    ("cached_document_used", .bool(lookup.value != nil)), ("url", .string(url))])
        }
        guard let value = lookup.value else { throw .unavailable }
        return value
    }

    static func parse(_ body: [UInt8], expectedIssuer: String) throws(FetchProblem) -> DiscoveryDocument {
        guard case .object(let members)? = try? JSONParser.parse(body) else {
            throw FetchProblem(reason: "not an OpenID configuration")
        }
        guard members["issuer"]?.stringValue == expectedIssuer else {
            throw FetchProblem(reason: "issuer in the document is not the configured issuer")
        }
        guard let jwks = members["jwks_uri"]?.stringValue, isHTTP(jwks) else {
            throw FetchProblem(reason: "jwks_uri missing or not an http(s) URL")
        }
        // The other endpoints are optional (a provider may have no UserInfo endpoint); one that is not an
        // http(s) URL counts as absent rather than spoiling the keys.
        let endpoint = { (name: String) in members[name]?.stringValue.flatMap { isHTTP($0) ? $0 : nil } }
        let methods = members["token_endpoint_auth_methods_supported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return DiscoveryDocument(issuer: expectedIssuer, jwksURI: jwks, authorizationEndpoint: endpoint("authorization_endpoint"),
                                 tokenEndpoint: endpoint("token_endpoint"), userInfoEndpoint: endpoint("userinfo_endpoint"),
                                 tokenEndpointAuthMethods: methods)
    }

    private static func isHTTP(_ url: String) -> Bool { url.hasPrefix("https://") || url.hasPrefix("http://") }
}

/// Keys found through discovery: the JWKS at the current document's `jwks_uri`. When the issuer moves its
/// JWKS, a new cache starts for the new URL (the old keys are not carried over: they were published there).
public final class DiscoveredKeys: SigningKeySource {
    private let discovery: OpenIDDiscovery
    private let makeCache: @Sendable (String) -> JWKSCache
    private let cache = Mutex<JWKSCache?>(nil)

    public init(discovery: OpenIDDiscovery, algorithms: Set<SignatureAlgorithm>, fetcher: any HTTPFetching,
                time: any TimeSource, refreshIntervalSeconds: Int64, log: any ProviderLog = SilentProviderLog()) {
        self.discovery = discovery
        self.makeCache = { url in
            JWKSCache(url: url, algorithms: algorithms, fetcher: fetcher, time: time,
                      refreshIntervalSeconds: refreshIntervalSeconds, log: log)
        }
    }

    public func key(id kid: String) async throws(KeyLookupFailure) -> VerificationKey {
        let location = try await discovery.current().jwksURI
        let keys = cache.withLock { current -> JWKSCache in
            if let current, current.url == location { return current }
            let fresh = makeCache(location)
            current = fresh
            return fresh
        }
        return try await keys.key(id: kid)
    }
}
