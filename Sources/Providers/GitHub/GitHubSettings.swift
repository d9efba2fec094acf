import AuthCore

extension ProviderID {
    /// GitHub sign-in (Firebase's `github.com`).
    public static let github: ProviderID = "github.com"
}

/// Operator settings for GitHub sign-in (the `github` section of the config file).
public struct GitHubSettings: Sendable, Equatable {
    public var enabled = false
    /// The OAuth app's client id (GitHub → Settings → Developer settings → OAuth Apps).
    public var clientId = ""
    /// The OAuth app's client secret: checks that an access token was issued to this app, and exchanges codes.
    /// From `GATEHOUSE_GITHUB_CLIENT_SECRET` or `github.clientSecretFile`; never logged.
    public var clientSecret = ""
    /// Where the browser signs in and codes are exchanged (`/login/oauth/authorize`, `/login/oauth/access_token`).
    public var baseURL = "https://github.com"
    /// The REST API (`/applications/{client_id}/token`, `/user/emails`).
    public var apiBaseURL = "https://api.github.com"
    /// What the redirect flow asks for when the client names no scopes.
    public var scopes = ["read:user", "user:email"]

    public init() {}

    /// The first thing an operator must fix, or nil when usable (checked at start).
    public var problem: String? {
        guard enabled else { return nil }
        if clientId.isEmpty || clientId.contains(where: { $0.isWhitespace || $0 == "/" }) {
            return "github.clientId must be the OAuth app's client id"
        }
        if clientSecret.isEmpty {
            return "github needs the OAuth app's client secret (GATEHOUSE_GITHUB_CLIENT_SECRET or github.clientSecretFile): without it no access token can be checked"
        }
        for (key, url) in [("github.baseUrl", baseURL), ("github.apiBaseUrl", apiBaseURL)]
        where !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
            return "\(key) must be an http(s) URL"
        }
        return nil
    }
}

/// `base` + `path` with exactly one slash between them.
func joined(_ base: String, _ path: String) -> String {
    (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
}
