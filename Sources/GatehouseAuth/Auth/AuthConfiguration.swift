import Foundation

/// Where the gateway is and how the library talks to it. FirebaseAuth reads these from
/// `GoogleService-Info.plist`; here they are given in code.
public struct AuthConfiguration: Sendable {
    /// The gateway's public URL, e.g. `https://auth.example.com` (a path prefix is kept). Must be `https://`
    /// unless `allowsInsecureHTTPForLocalDevelopment` is set.
    public var gatewayURL: URL
    /// One of the gateway's `apiKeys` (any non-empty key when the gateway lists none).
    public var apiKey: String
    /// The gateway's `projectId`: the audience of its ID tokens. A token for another project is refused.
    public var projectID: String
    /// Separates the sessions of several `Auth` instances of one app in the session store.
    public var appName: String = "[DEFAULT]"
    /// Lets `http://` through, for a gateway on the developer's own machine. Passwords, codes and tokens then
    /// travel in clear: never set it in a release build.
    public var allowsInsecureHTTPForLocalDevelopment = false
    /// Where the session is kept between launches (the Keychain on Apple platforms, a 0600 file on Linux).
    public var sessionStore: any AuthSessionStore = DefaultSessionStore.make()
    public var transport: any AuthHTTPTransport = URLSessionTransport()
    /// Seconds before a request to the gateway gives up (`networkError`).
    public var requestTimeout: TimeInterval = 30
    /// An ID token this close to its expiry is refreshed before it is handed out (FirebaseAuth: 5 minutes). For
    /// tokens that live less than twice as long, half their lifetime is used instead.
    public var tokenRefreshMargin: TimeInterval = 300
    /// The device's clock. Tests move it to check refreshing without waiting.
    public var clock: @Sendable () -> Date = { Date() }

    public init(gatewayURL: URL, apiKey: String, projectID: String) {
        self.gatewayURL = gatewayURL
        self.apiKey = apiKey
        self.projectID = projectID
    }

    /// The configuration's problem, if any: the library refuses it before sending anything.
    func problem() -> AuthError? {
        guard !apiKey.isEmpty else { return AuthError(.invalidAPIKey, "The API key is empty.") }
        guard !projectID.isEmpty else { return AuthError(.invalidConfiguration, "The project id is empty.") }
        guard let components = URLComponents(url: gatewayURL, resolvingAgainstBaseURL: false),
              let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
              components.user == nil, components.password == nil else {
            return AuthError(.invalidConfiguration, "The gateway URL \(gatewayURL) needs a host and no query, fragment or user.")
        }
        switch components.scheme?.lowercased() {
        case "https":
            return nil
        case "http" where allowsInsecureHTTPForLocalDevelopment:
            return nil
        case "http":
            return AuthError(.insecureGatewayURL, "The gateway URL \(gatewayURL) is plain http: passwords and tokens would travel "
                + "in clear. Use https, or set allowsInsecureHTTPForLocalDevelopment for a gateway on your own machine.")
        default:
            return AuthError(.invalidConfiguration, "The gateway URL \(gatewayURL) is neither https nor http.")
        }
    }

    /// A token minted for another project means this configuration points at the wrong gateway or project.
    func checkAudience(of idToken: String) throws {
        guard let claims = JWTClaims.decode(idToken) else {
            throw AuthError(.internalError, "The gateway's ID token is not a JWT.")
        }
        let audience = claims["aud"] as? String
        guard audience == projectID else {
            throw AuthError(.invalidConfiguration, "The gateway issued a token for project \(audience ?? "(none)"), "
                + "not for \(projectID): check projectID.")
        }
    }

    /// The session store key of this configuration's signed-in user.
    var sessionKey: String { "gatehouse-auth.\(projectID).\(appName)" }
}
