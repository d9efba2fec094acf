import AuthCore
import Federation
import ProviderKit

/// Reads `OIDCProviderSettings` from configuration: an entry of the file's `oidc.providers` list, the tunable
/// part of a built-in provider's section (`google`), and the Gatehouse extension object of an admin-API resource.
/// One reader for all three, so a key means the same wherever it is written.
enum OIDCSettingsReader {
    /// Keys that tune verification and mapping, accepted everywhere (also in the API's `gatehouse` object).
    static let tunableKeys: Set = ["scopes", "claims", "nonce", "emailLinking", "algorithms", "clockSkewSeconds",
                                   "maxTokenAgeSeconds", "keyRefreshIntervalSeconds", "acceptUserInfoAccessTokens", "endpoints"]
    /// Keys of one `oidc.providers` entry.
    static let entryKeys = tunableKeys.union(["providerId", "displayName", "enabled", "issuer", "clientIds",
                                              "clientSecretFile", "responseType"])

    /// One entry of `oidc.providers`. The client secret comes from `GATEHOUSE_OIDC_<NAME>_CLIENT_SECRET` or the
    /// file named by `clientSecretFile`, never inline (config files tend to be committed).
    static func entry(_ section: ConfigSection, environment: [String: String]) throws -> OIDCProviderSettings {
        try section.requireKnownKeys(entryKeys)
        guard let providerId = try section.string("providerId") else {
            throw ConfigurationError("\(section.name("providerId")) is required (oidc.<name>)")
        }
        if let problem = OIDCProviderID.problem(providerId) { throw ConfigurationError("\(section.name("providerId")): \(problem)") }
        guard let issuer = try section.string("issuer") else { throw ConfigurationError("\(section.name("issuer")) is required") }
        let secret = try section.secret(fileKey: "clientSecretFile", environmentVariable: secretVariable(providerId),
                                        environment: environment)
        var settings = OIDCProviderSettings(providerId: providerId, displayName: try section.string("displayName"),
                                            enabled: try section.bool("enabled") ?? true, issuer: issuer,
                                            clientIds: try section.strings("clientIds") ?? [], clientSecret: secret,
                                            responseType: try responseType(section))
        try applyTunables(section, to: &settings)
        if let problem = settings.problem(at: section.path) { throw ConfigurationError(problem) }
        return settings
    }

    /// `oidc.keycloak` → `GATEHOUSE_OIDC_KEYCLOAK_CLIENT_SECRET`.
    static func secretVariable(_ providerId: String) -> String {
        let name = providerId.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return "GATEHOUSE_" + String(name) + "_CLIENT_SECRET"
    }

    static func responseType(_ section: ConfigSection) throws(ConfigurationError) -> OIDCProviderSettings.ResponseType? {
        guard let text = try section.string("responseType") else { return nil }
        guard let type = OIDCProviderSettings.ResponseType(rawValue: text) else {
            throw ConfigurationError("config key \"\(section.name("responseType"))\" must be \"code\" or \"idToken\"")
        }
        return type
    }

    /// Applies the tunable keys present in `section` over `settings` (absent keys keep what is there).
    static func applyTunables(_ section: ConfigSection, to settings: inout OIDCProviderSettings) throws(ConfigurationError) {
        settings.scopes = try section.strings("scopes") ?? settings.scopes
        settings.clockSkewSeconds = try section.int64("clockSkewSeconds") ?? settings.clockSkewSeconds
        settings.maxTokenAgeSeconds = try section.int64("maxTokenAgeSeconds") ?? settings.maxTokenAgeSeconds
        settings.keyRefreshIntervalSeconds = try section.int64("keyRefreshIntervalSeconds") ?? settings.keyRefreshIntervalSeconds
        settings.acceptsUserInfoAccessTokens = try section.bool("acceptUserInfoAccessTokens") ?? settings.acceptsUserInfoAccessTokens
        if let names = try section.strings("algorithms") {
            settings.algorithms = []
            for name in names {
                guard let algorithm = SignatureAlgorithm(rawValue: name) else {
                    throw ConfigurationError("config key \"\(section.name("algorithms"))\" may hold only \"RS256\" and \"ES256\", got \"\(name)\"")
                }
                settings.algorithms.insert(algorithm)
            }
        }
        if let claims = try section.section("claims", allowing: Set(ClaimNames.keys.map(\.key))) {
            for (key, path) in ClaimNames.keys {
                if let name = try claims.string(key) { settings.claims[keyPath: path] = name }
            }
        }
        if let nonce = try section.section("nonce", allowing: ["required", "acceptRaw"]) {
            settings.nonceRequired = try nonce.bool("required") ?? settings.nonceRequired
            settings.acceptsRawNonce = try nonce.bool("acceptRaw") ?? settings.acceptsRawNonce
        }
        if let linking = try section.section("emailLinking", allowing: ["verifiedEmails", "domains", "hostedDomainClaim"]) {
            let current = settings.emailLinking
            settings.emailLinking = EmailLinking(verifiedEmails: try linking.bool("verifiedEmails") ?? current.verifiedEmails,
                                                 domains: try linking.strings("domains") ?? current.domains,
                                                 hostedDomainClaim: try linking.string("hostedDomainClaim") ?? current.hostedDomainClaim)
        }
        if let endpoints = try section.section("endpoints", allowing: ["jwks", "authorization", "token", "userInfo", "tokenInfo"]) {
            settings.endpoints.jwks = try endpoints.string("jwks") ?? settings.endpoints.jwks
            settings.endpoints.authorization = try endpoints.string("authorization") ?? settings.endpoints.authorization
            settings.endpoints.token = try endpoints.string("token") ?? settings.endpoints.token
            settings.endpoints.userInfo = try endpoints.string("userInfo") ?? settings.endpoints.userInfo
            settings.endpoints.tokenInfo = try endpoints.string("tokenInfo") ?? settings.endpoints.tokenInfo
        }
    }
}
