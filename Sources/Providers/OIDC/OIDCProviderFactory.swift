import AuthCore
import Outbound
import ProviderKit
import WireFormats

/// Generic OpenID Connect providers (`oidc.<name>`): any number from the file's `oidc.providers` list, plus any
/// number created through the admin API (`oauthIdpConfigs`), which are stored in the database and built by every
/// instance within the gateway's refresh interval. Providers from the file are read-only through the API.
public struct OIDCProviderFactory: ProviderConfigResources {
    public struct Settings: Sendable, Equatable {
        public var providers: [OIDCProviderSettings]
    }

    public init() {}

    public var section: String { "oidc" }
    public var resourceCollection: String { "oauthIdpConfigs" }

    public func settings(from section: ConfigSection, environment: [String: String]) throws -> Settings {
        try section.requireKnownKeys(["providers"])
        let providers = try (try section.sections("providers") ?? []).map {
            try OIDCSettingsReader.entry($0, environment: environment)
        }
        var seen = Set<String>()
        if let repeated = providers.first(where: { !seen.insert($0.providerId).inserted }) {
            throw ConfigurationError("oidc.providers names \(repeated.providerId) twice")
        }
        return Settings(providers: providers)
    }

    public func plugins(_ settings: Settings, context: ProviderContext) throws -> PluginSet {
        PluginSet(providers: settings.providers.map { Self.provider($0, context: context) })
    }

    /// The one way an OpenID Connect provider is built, for every source of settings (and the built-in ones).
    static func provider(_ settings: OIDCProviderSettings, context: ProviderContext) -> OIDCProvider {
        let id = ProviderID(settings.providerId)
        return OIDCProvider(settings: settings, fetcher: context.fetcher, ledger: context.ledger(kind: "\(id.rawValue).nonce"),
                            time: context.time, log: context.log(for: id))
    }

    // MARK: Stored configurations

    public func owns(_ providerId: String) -> Bool { providerId.hasPrefix(OIDCProviderID.prefix) }

    public func provider(fromStored record: StoredProviderConfig, settings: Settings,
                         context: ProviderContext) throws -> any CredentialProvider {
        Self.provider(try OAuthIdpConfigFormat.settings(fromStored: record, sealer: context.sealer), context: context)
    }

    // MARK: The admin API's resources

    public func storedConfig(fromResource resource: JSONObject, providerId: String, context: ProviderContext) throws -> JSONObject {
        try OAuthIdpConfigFormat.stored(fromResource: resource, providerId: providerId, sealer: context.sealer)
    }

    public func resource(fromStored record: StoredProviderConfig, context: ProviderContext) throws -> JSONObject {
        try OAuthIdpConfigFormat.resource(fromStored: record, sealer: context.sealer)
    }

    public func fileResources(_ settings: Settings) -> [StoredProviderConfig] {
        settings.providers.map {
            StoredProviderConfig(providerId: $0.providerId, config: OAuthIdpConfigFormat.resource($0, includingSecret: false))
        }
    }
}
