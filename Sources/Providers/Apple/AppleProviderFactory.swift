import AuthCore
import ProviderKit

/// Reads the `apple` section and builds Sign in with Apple. The .p8 key comes from `privateKeyFile` or the
/// `GATEHOUSE_APPLE_PRIVATE_KEY` environment variable; it is never accepted inline in the config file, which
/// tends to be committed.
public struct AppleProviderFactory: ProviderFactory {
    public static let keys: Set = ["enabled", "bundleIds", "servicesIds", "teamId", "keyId", "privateKeyFile", "baseUrl",
                                   "clockSkewSeconds", "keyRefreshIntervalSeconds"]

    public init() {}

    public var section: String { "apple" }

    public func settings(from section: ConfigSection, environment: [String: String]) throws -> AppleConfiguration {
        try section.requireKnownKeys(Self.keys)
        var apple = AppleConfiguration()
        apple.enabled = try section.bool("enabled") ?? apple.enabled
        apple.bundleIds = try section.strings("bundleIds") ?? apple.bundleIds
        apple.servicesIds = try section.strings("servicesIds") ?? apple.servicesIds
        apple.teamId = try section.string("teamId") ?? apple.teamId
        apple.keyId = try section.string("keyId") ?? apple.keyId
        apple.baseURL = try section.string("baseUrl") ?? apple.baseURL
        apple.clockSkewSeconds = try section.int64("clockSkewSeconds") ?? apple.clockSkewSeconds
        apple.keyRefreshIntervalSeconds = try section.int64("keyRefreshIntervalSeconds") ?? apple.keyRefreshIntervalSeconds
        apple.privateKeyPEM = try section.secret(fileKey: "privateKeyFile", environmentVariable: "GATEHOUSE_APPLE_PRIVATE_KEY",
                                                 environment: environment)
        if let problem = apple.problem { throw ConfigurationError(problem) }
        return apple
    }

    public func plugins(_ settings: AppleConfiguration, context: ProviderContext) throws -> PluginSet {
        let provider = try AppleProvider(configuration: settings, fetcher: context.fetcher,
                                         ledger: context.ledger(kind: "apple.nonce"), time: context.time,
                                         log: context.log(for: .apple))
        return PluginSet(providers: [provider])
    }
}
