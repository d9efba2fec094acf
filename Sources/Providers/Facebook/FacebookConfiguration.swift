import AuthCore

/// Operator settings for Facebook Login (the `facebook` section of the config file).
public struct FacebookConfiguration: Sendable, Equatable {
    /// Facebook's production hosts; tests point each at a local stand-in instead.
    public static let defaultGraphBaseURL = "https://graph.facebook.com"
    public static let defaultDialogBaseURL = "https://www.facebook.com"
    public static let defaultLimitedLoginBaseURL = "https://limited.facebook.com"
    /// The Graph API version every call names. Pinned, so a new Graph version never changes behaviour
    /// unannounced; raise it when Meta deprecates this one.
    public static let defaultGraphVersion = "v25.0"

    public var enabled: Bool
    /// The Facebook app ID: the `app_id` a classic token must belong to and the `aud` of Limited Login tokens.
    public var appId: String
    /// The app secret (`debug_token`'s app access token, `appsecret_proof`, the code exchange and the callbacks'
    /// `signed_request`). Never logged, never echoed.
    public var appSecret: String?
    public var graphVersion: String
    /// Where `debug_token`, `/me` and `oauth/access_token` live.
    public var graphBaseURL: String
    /// Where the OAuth dialog of the web redirect flow lives (`<base>/<version>/dialog/oauth`).
    public var dialogBaseURL: String
    /// Where Limited Login's keys live (`<base>/.well-known/oauth/openid/jwks/`).
    public var limitedLoginBaseURL: String
    /// Also accept a Limited Login token whose `nonce` is the raw nonce itself, for apps that pass the raw value
    /// to Facebook's SDK. Weaker than the SHA-256 hex Firebase apps pass; off by default.
    public var acceptsRawNonce: Bool
    /// Bounds each call to Graph (connect and answer), so a slow Facebook fails one sign-in cleanly instead of
    /// holding it.
    public var requestTimeoutSeconds: Int64
    /// Tolerance for clock differences on Limited Login `exp`/`iat` and on a callback's `issued_at`.
    public var clockSkewSeconds: Int64
    /// The least time between two JWKS fetches caused by unknown key ids. At least 1.
    public var keyRefreshIntervalSeconds: Int64
    /// The oldest `issued_at` a deauthorize or data-deletion callback may carry. Deliveries within it are
    /// applied once (a repeat changes nothing); older ones are refused.
    public var callbackMaxAgeSeconds: Int64

    public init(enabled: Bool = false, appId: String = "", appSecret: String? = nil,
                graphVersion: String = FacebookConfiguration.defaultGraphVersion,
                graphBaseURL: String = FacebookConfiguration.defaultGraphBaseURL,
                dialogBaseURL: String = FacebookConfiguration.defaultDialogBaseURL,
                limitedLoginBaseURL: String = FacebookConfiguration.defaultLimitedLoginBaseURL,
                acceptsRawNonce: Bool = false, requestTimeoutSeconds: Int64 = 5, clockSkewSeconds: Int64 = 60,
                keyRefreshIntervalSeconds: Int64 = 60, callbackMaxAgeSeconds: Int64 = 86_400) {
        self.enabled = enabled
        self.appId = appId
        self.appSecret = appSecret
        self.graphVersion = graphVersion
        self.graphBaseURL = graphBaseURL
        self.dialogBaseURL = dialogBaseURL
        self.limitedLoginBaseURL = limitedLoginBaseURL
        self.acceptsRawNonce = acceptsRawNonce
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.clockSkewSeconds = clockSkewSeconds
        self.keyRefreshIntervalSeconds = keyRefreshIntervalSeconds
        self.callbackMaxAgeSeconds = callbackMaxAgeSeconds
    }

    /// The first thing an operator must fix, phrased with the config key names, or nil when the settings are
    /// usable. Checked at start so a gateway never runs with Facebook half-configured.
    public var problem: String? {
        guard enabled else { return nil }
        guard !appId.isEmpty else {
            return "facebook is enabled but facebook.appId is not set (NOT_CONFIGURED): use the App ID from the app's dashboard"
        }
        guard appId.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return "facebook.appId must be the numeric App ID from the app's dashboard, got \"\(appId)\""
        }
        guard let appSecret, !appSecret.isEmpty else {
            return "facebook is enabled but has no app secret: set GATEHOUSE_FACEBOOK_APP_SECRET or facebook.appSecretFile"
        }
        guard Self.isGraphVersion(graphVersion) else {
            return "facebook.graphVersion must look like v25.0, got \"\(graphVersion)\""
        }
        for (name, url) in [("graphBaseUrl", graphBaseURL), ("dialogBaseUrl", dialogBaseURL),
                            ("limitedLoginBaseUrl", limitedLoginBaseURL)]
        where !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
            return "facebook.\(name) must be an http(s) URL"
        }
        guard (1...60).contains(requestTimeoutSeconds) else { return "facebook.requestTimeoutSeconds must be 1-60" }
        guard (0...600).contains(clockSkewSeconds) else { return "facebook.clockSkewSeconds must be 0-600" }
        guard keyRefreshIntervalSeconds >= 1 else {
            return "facebook.keyRefreshIntervalSeconds must be at least 1: it spaces the JWKS re-fetches that unknown key ids cause"
        }
        guard (60...604_800).contains(callbackMaxAgeSeconds) else {
            return "facebook.callbackMaxAgeSeconds must be 60-604800 (one minute to one week)"
        }
        return nil
    }

    /// `v<major>.<minor>`, digits only.
    static func isGraphVersion(_ text: String) -> Bool {
        guard text.hasPrefix("v") else { return false }
        let parts = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
    }
}

extension ProviderID {
    /// Facebook Login.
    public static let facebook: ProviderID = "facebook.com"
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Facebook endpoint URLs under the configured base URLs.
enum FacebookEndpoints {
    static func url(_ base: String, _ path: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
    }

    static func graph(_ configuration: FacebookConfiguration, _ path: String) -> String {
        url(configuration.graphBaseURL, "/\(configuration.graphVersion)\(path)")
    }

    static func dialog(_ configuration: FacebookConfiguration) -> String {
        url(configuration.dialogBaseURL, "/\(configuration.graphVersion)/dialog/oauth")
    }

    static func keys(_ configuration: FacebookConfiguration) -> String {
        url(configuration.limitedLoginBaseURL, "/.well-known/oauth/openid/jwks/")
    }
}
