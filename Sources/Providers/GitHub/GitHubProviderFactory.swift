import AuthCore
import ProviderKit

/// Reads the `github` section and builds GitHub sign-in: the whole of what the gateway needs to know about it.
/// The secret comes from the environment or a file, never inline (config files tend to be committed).
public struct GitHubProviderFactory: ProviderFactory {
    public static let keys: Set = ["enabled", "clientId", "clientSecretFile", "baseUrl", "apiBaseUrl", "scopes"]

    public init() {}

    public var section: String { "github" }

    public func settings(from section: ConfigSection, environment: [String: String]) throws -> GitHubSettings {
        try section.requireKnownKeys(Self.keys)
        var settings = GitHubSettings()
        settings.enabled = try section.bool("enabled") ?? settings.enabled
        settings.clientId = try section.string("clientId") ?? settings.clientId
        settings.baseURL = try section.string("baseUrl") ?? settings.baseURL
        settings.apiBaseURL = try section.string("apiBaseUrl") ?? settings.apiBaseURL
        settings.scopes = try section.strings("scopes") ?? settings.scopes
        settings.clientSecret = try section.secret(fileKey: "clientSecretFile", environmentVariable: "GATEHOUSE_GITHUB_CLIENT_SECRET",
                                                   environment: environment) ?? ""
        if let problem = settings.problem { throw ConfigurationError(problem) }
        return settings
    }

    /// Built even when switched off, so a client using it is told `OPERATION_NOT_ALLOWED` (as by Firebase).
    public func plugins(_ settings: GitHubSettings, context: ProviderContext) throws -> PluginSet {
        let api = GitHubAPI(settings: settings, fetcher: context.fetcher, log: context.log(for: .github))
        return PluginSet(providers: [GitHubProvider(settings: settings, api: api)])
    }
}
