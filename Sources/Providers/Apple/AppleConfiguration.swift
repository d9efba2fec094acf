import AuthCore

/// Operator settings for Sign in with Apple (the `apple` section of the config file).
public struct AppleConfiguration: Sendable, Equatable {
    /// Apple's production host; tests point `baseURL` at a local stand-in instead.
    public static let defaultBaseURL = "https://appleid.apple.com"

    public var enabled: Bool
    /// Bundle IDs of native iOS/macOS apps: the `aud` of tokens from the native sheet.
    public var bundleIds: [String]
    /// Services IDs for web and Android: the `aud` of tokens from Apple's web flow.
    public var servicesIds: [String]
    /// The 10-character Team ID (client secret `iss`). With `keyId` and `privateKeyPEM` it enables code
    /// exchange and revocation; without them sign-in still works but Apple tokens cannot be revoked.
    public var teamId: String?
    /// The 10-character Key ID of the Sign in with Apple key (client secret `kid`).
    public var keyId: String?
    /// The .p8 key's PEM text. Never logged, never echoed.
    public var privateKeyPEM: String?
    /// Where Apple's endpoints live (`/auth/keys`, `/auth/token`, `/auth/revoke`, `/auth/authorize`).
    public var baseURL: String
    /// Tolerance for clock differences when checking `exp` and `iat`.
    public var clockSkewSeconds: Int64
    /// The oldest `iat` accepted: Apple's tokens are short-lived, an older one is a replay candidate.
    public var maxTokenAgeSeconds: Int64
    /// The least time between two JWKS fetches caused by unknown key ids (a flood of forged `kid`s must
    /// not turn into a flood of requests to Apple). At least 1.
    public var keyRefreshIntervalSeconds: Int64

    public init(enabled: Bool = false, bundleIds: [String] = [], servicesIds: [String] = [], teamId: String? = nil,
                keyId: String? = nil, privateKeyPEM: String? = nil, baseURL: String = AppleConfiguration.defaultBaseURL,
                clockSkewSeconds: Int64 = 60, maxTokenAgeSeconds: Int64 = 600, keyRefreshIntervalSeconds: Int64 = 60) {
        self.enabled = enabled
        self.bundleIds = bundleIds
        self.servicesIds = servicesIds
        self.teamId = teamId
        self.keyId = keyId
        self.privateKeyPEM = privateKeyPEM
        self.baseURL = baseURL
        self.clockSkewSeconds = clockSkewSeconds
        self.maxTokenAgeSeconds = maxTokenAgeSeconds
        self.keyRefreshIntervalSeconds = keyRefreshIntervalSeconds
    }

    /// Every client ID Apple may name in `aud`.
    public var audiences: [String] { bundleIds + servicesIds }

    /// Whether code exchange and revocation can run (Team ID, Key ID and key are all set).
    public var canCallTokenEndpoint: Bool {
        teamId?.isEmpty == false && keyId?.isEmpty == false && privateKeyPEM?.isEmpty == false
    }

    /// The first thing an operator must fix, phrased with the config key names, or nil when the settings
    /// are usable. Checked at start so a gateway never runs with Apple half-configured.
    public var problem: String? {
        guard enabled else { return nil }
        if audiences.isEmpty {
            return "apple is enabled but neither apple.bundleIds nor apple.servicesIds is set (NOT_CONFIGURED): add the bundle ID of each iOS app and the Services ID used on web and Android"
        }
        if let id = audiences.first(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) {
            return "apple.bundleIds and apple.servicesIds must be non-empty identifiers without spaces, got \"\(id)\""
        }
        let tokenSettings = [("apple.teamId", teamId), ("apple.keyId", keyId), ("apple.privateKeyFile or GATEHOUSE_APPLE_PRIVATE_KEY", privateKeyPEM)]
        let given = tokenSettings.filter { $0.1?.isEmpty == false }
        if !given.isEmpty && given.count < tokenSettings.count {
            let missing = tokenSettings.filter { $0.1?.isEmpty != false }.map(\.0).joined(separator: ", ")
            return "apple code exchange and revocation need apple.teamId, apple.keyId and the .p8 key together; missing: \(missing)"
        }
        for (name, value) in tokenSettings.prefix(2) {
            if let value, !value.isEmpty, value.utf8.count != 10 {
                return "\(name) must be the 10-character identifier from the Apple Developer portal"
            }
        }
        guard baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://") else {
            return "apple.baseUrl must be an http(s) URL"
        }
        guard clockSkewSeconds >= 0, clockSkewSeconds <= 600 else { return "apple.clockSkewSeconds must be 0-600" }
        guard keyRefreshIntervalSeconds >= 1 else {
            return "apple.keyRefreshIntervalSeconds must be at least 1: it spaces the JWKS re-fetches that unknown key ids cause, and 0 would switch that rate limit off"
        }
        return nil
    }
}

extension ProviderID {
    /// Sign in with Apple.
    public static let apple: ProviderID = "apple.com"
}

/// Apple endpoint URLs under the configured base URL.
enum AppleEndpoints {
    static func url(_ base: String, _ path: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
    }
}
