import AuthCore
import Federation

/// One OpenID Connect provider: an entry of the `oidc.providers` list, a configuration created through the admin
/// API (`oauthIdpConfigs`), or a built-in one (`google.com`, `microsoft.com`). All of them run the same code;
/// they differ only in these values.
public struct OIDCProviderSettings: Sendable, Equatable {
    /// How the redirect flow asks the provider to answer.
    public enum ResponseType: String, Sendable, Equatable {
        /// Authorization code with PKCE, exchanged with the client secret at the token endpoint.
        case code
        /// The ID token itself, form-posted back (no client secret needed).
        case idToken
    }

    /// Where each endpoint lives. An endpoint left nil is read from the issuer's discovery document
    /// (`<issuer>/.well-known/openid-configuration`); a provider with all of them set is never asked for one.
    public struct Endpoints: Sendable, Equatable {
        public var jwks: String?
        public var authorization: String?
        public var token: String?
        public var userInfo: String?
        /// Checks an access token and says which client it was issued to (Google's token-info endpoint). With it,
        /// `access_token` sign-ins are audience-checked; generic providers have none.
        public var tokenInfo: String?

        public init(jwks: String? = nil, authorization: String? = nil, token: String? = nil, userInfo: String? = nil,
                    tokenInfo: String? = nil) {
            self.jwks = jwks
            self.authorization = authorization
            self.token = token
            self.userInfo = userInfo
            self.tokenInfo = tokenInfo
        }

        var all: [(key: String, value: String?)] {
            [("jwks", jwks), ("authorization", authorization), ("token", token), ("userInfo", userInfo),
             ("tokenInfo", tokenInfo)]
        }
    }

    public var providerId: String
    /// How messages and the admin API name the provider ("id_token issuer is not Keycloak").
    public var displayName: String?
    public var enabled: Bool
    /// The issuer (`iss`), also where discovery starts.
    public var issuer: String
    /// Further accepted `iss` values (Google signs as `accounts.google.com` and `https://accounts.google.com`).
    public var issuerAliases: [String]
    /// The OAuth client ids tokens may be issued to (`aud`); the first is the redirect flow's client.
    public var clientIds: [String]
    /// Needed for the code flow only. Never logged or shown in the startup line.
    public var clientSecret: String?
    public var responseType: ResponseType
    /// Scopes the redirect flow asks for when the client names none.
    public var scopes: [String]
    public var claims: ClaimNames
    /// Whether every `id_token` sign-in must carry a nonce (otherwise: both or neither).
    public var nonceRequired: Bool
    /// Also accept a `nonce` claim equal to the raw nonce, for SDKs that pass it through unhashed.
    public var acceptsRawNonce: Bool
    /// Without `nonceRequired`: whether a token with a `nonce` claim is refused when the request sends no raw nonce
    /// (true, "both or neither": a nonce-bound token presented without its nonce is what the binding exists to
    /// stop). False for Google: Google Sign-In for iOS puts a nonce of its own in tokens that apps cannot read, and
    /// Firebase's Google credentials (Android's `getCredential(idToken, null)`, the JS SDK's `credential(idToken)`)
    /// cannot send one, so its claim is checked only when a raw nonce is sent.
    public var nonceClaimNeedsRawNonce: Bool
    public var emailLinking: EmailLinking
    public var algorithms: Set<SignatureAlgorithm>
    public var clockSkewSeconds: Int64
    /// The oldest `iat` accepted, or nil for no limit beyond `exp`.
    public var maxTokenAgeSeconds: Int64?
    /// The least time between two fetches of the keys or the discovery document for unknown key ids (at least 1).
    public var keyRefreshIntervalSeconds: Int64
    /// Accept `access_token` sign-ins checked only at the UserInfo endpoint. Off by default: UserInfo does not
    /// say which client a token was issued to, so any app registered at the same issuer could sign its users
    /// in here. (With a token-info endpoint the audience is checked and this switch is not needed.)
    public var acceptsUserInfoAccessTokens: Bool
    public var endpoints: Endpoints

    public init(providerId: String, displayName: String? = nil, enabled: Bool = true, issuer: String,
                issuerAliases: [String] = [], clientIds: [String], clientSecret: String? = nil,
                responseType: ResponseType? = nil, scopes: [String] = ["openid", "email", "profile"],
                claims: ClaimNames = ClaimNames(), nonceRequired: Bool = false, acceptsRawNonce: Bool = false,
                nonceClaimNeedsRawNonce: Bool = true, emailLinking: EmailLinking = EmailLinking(), algorithms: Set<SignatureAlgorithm> = [.rs256],
                clockSkewSeconds: Int64 = 60, maxTokenAgeSeconds: Int64? = nil, keyRefreshIntervalSeconds: Int64 = 60,
                acceptsUserInfoAccessTokens: Bool = false, endpoints: Endpoints = Endpoints()) {
        self.providerId = providerId
        self.displayName = displayName
        self.enabled = enabled
        self.issuer = issuer
        self.issuerAliases = issuerAliases
        self.clientIds = clientIds
        self.clientSecret = clientSecret
        self.responseType = responseType ?? (clientSecret == nil ? .idToken : .code)
        self.scopes = scopes
        self.claims = claims
        self.nonceRequired = nonceRequired
        self.acceptsRawNonce = acceptsRawNonce
        self.nonceClaimNeedsRawNonce = nonceClaimNeedsRawNonce
        self.emailLinking = emailLinking
        self.algorithms = algorithms
        self.clockSkewSeconds = clockSkewSeconds
        self.maxTokenAgeSeconds = maxTokenAgeSeconds
        self.keyRefreshIntervalSeconds = keyRefreshIntervalSeconds
        self.acceptsUserInfoAccessTokens = acceptsUserInfoAccessTokens
        self.endpoints = endpoints
    }

    /// The name messages use for the provider.
    public var name: String { displayName.flatMap { $0.isEmpty ? nil : $0 } ?? providerId }

    /// The first thing an operator must fix, phrased with the key names under `path`, or nil when usable.
    /// Checked wherever settings come from (file, admin API, built-in), so no provider runs half-configured.
    public func problem(at path: String) -> String? {
        let key = { (name: String) in path.isEmpty ? name : "\(path).\(name)" }
        guard Self.isHTTPURL(issuer) else { return "\(key("issuer")) must be an http(s) URL, got \"\(issuer)\"" }
        if clientIds.isEmpty { return "\(key("clientIds")) must name at least one OAuth client id" }
        if let id = clientIds.first(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) {
            return "\(key("clientIds")) must be non-empty ids without spaces, got \"\(id)\""
        }
        if responseType == .code && (clientSecret ?? "").isEmpty {
            return "\(key("responseType")) code needs a client secret"
        }
        if algorithms.isEmpty { return "\(key("algorithms")) must name RS256 and/or ES256" }
        guard (0...600).contains(clockSkewSeconds) else { return "\(key("clockSkewSeconds")) must be 0-600" }
        if let age = maxTokenAgeSeconds, age < 1 { return "\(key("maxTokenAgeSeconds")) must be at least 1" }
        guard keyRefreshIntervalSeconds >= 1 else {
            return "\(key("keyRefreshIntervalSeconds")) must be at least 1: it spaces the key re-fetches unknown key ids cause"
        }
        for (name, url) in endpoints.all {
            if let url, !Self.isHTTPURL(url) { return "\(key("endpoints.\(name)")) must be an http(s) URL" }
        }
        return claims.problem(at: key("claims"))
    }

    static func isHTTPURL(_ text: String) -> Bool {
        (text.hasPrefix("https://") || text.hasPrefix("http://")) && text.count > "https://".count
            && !text.contains(where: \.isWhitespace)
    }
}

/// The rule a generic provider's id must follow: `oidc.` and a lowercase name (clients' provider ids are
/// lower-cased on the way in, so an upper-case id could never be signed in with).
public enum OIDCProviderID {
    public static let prefix = "oidc."

    public static func problem(_ providerId: String) -> String? {
        let name = providerId.dropFirst(prefix.count)
        guard providerId.hasPrefix(prefix), (1...64).contains(name.count) else {
            return "the provider id must be \"oidc.\" followed by 1-64 characters, got \"\(providerId)\""
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_.")
        guard name.allSatisfy(allowed.contains) else {
            return "the provider id \"\(providerId)\" may use only a-z, 0-9, '-', '_' and '.' after \"oidc.\""
        }
        return nil
    }
}
