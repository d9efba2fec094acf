import AuthCore
import ProviderKit

/// Reads the `anonymous` section: the switch, the per-client sign-up limit and the clean-up of accounts that
/// never upgraded.
public struct AnonymousProviderFactory: ProviderFactory {
    public init() {}

    public var section: String { "anonymous" }

    public func settings(from section: ConfigSection, environment: [String: String]) throws -> AnonymousProvider.Configuration {
        try section.requireKnownKeys(["enabled", "signUpsPerIPPerHour", "cleanup"])
        var configuration = AnonymousProvider.Configuration()
        configuration.enabled = try section.bool("enabled") ?? configuration.enabled
        configuration.signUpsPerIPPerHour = try section.int("signUpsPerIPPerHour") ?? configuration.signUpsPerIPPerHour
        configuration.limitIsExplicit = section.has("signUpsPerIPPerHour")
        guard configuration.signUpsPerIPPerHour >= 0 else {
            throw ConfigurationError("\(section.name("signUpsPerIPPerHour")) must not be negative (0 = unlimited)")
        }
        if let cleanup = try section.section("cleanup", allowing: ["enabled", "maxAgeDays", "intervalSeconds"]),
           try cleanup.bool("enabled") == true {
            let policy = AbandonedAccountPolicy(maxAgeDays: try cleanup.int64("maxAgeDays") ?? 30,
                                                intervalSeconds: try cleanup.int64("intervalSeconds") ?? 3600)
            guard policy.maxAgeDays >= 1, policy.intervalSeconds >= 1 else {
                throw ConfigurationError("\(cleanup.path).maxAgeDays and .intervalSeconds must be at least 1")
            }
            configuration.cleanup = policy
        }
        return configuration
    }

    public func plugins(_ settings: AnonymousProvider.Configuration, context: ProviderContext) throws -> PluginSet {
        PluginSet(providers: [context.emulator ? AnonymousProvider(emulatorConfiguration: settings, time: context.time)
                                               : AnonymousProvider(configuration: settings, time: context.time)])
    }
}
