import AuthCore

/// Makes a plugin's instances from its own configuration section. The gateway's registration table is a list
/// of these; the configuration loader hands each factory its section, so a new provider adds no field, key or
/// branch anywhere in the gateway.
///
/// ```swift
/// public struct ExampleProviderFactory: ProviderFactory {
///     public var section: String { "example" }
///     public func settings(from section: ConfigSection, environment: [String: String]) throws -> ExampleSettings {
///         try section.requireKnownKeys(["enabled", "clientId", "secretFile"])
///         return ExampleSettings(enabled: try section.bool("enabled") ?? false, ...)
///     }
///     public func plugins(_ settings: ExampleSettings, context: ProviderContext) throws -> PluginSet {
///         PluginSet(providers: [ExampleProvider(settings, fetcher: context.fetcher, log: context.log(for: .example))])
///     }
/// }
/// ```
public protocol ProviderFactory: Sendable {
    /// What the section parses to: validated, with secrets already read.
    associatedtype Settings: Sendable

    /// The key of this factory's section in the configuration file (`"apple"`, `"email"`).
    var section: String { get }

    /// Parses and validates the section (empty when absent) at start-up. Throws `ConfigurationError` naming the
    /// key; reads secrets from the environment or files (`ConfigSection.secret`), never from inline values that
    /// are meant to be committed.
    func settings(from section: ConfigSection, environment: [String: String]) throws -> Settings

    /// Builds the plugin's instances (none when the settings switch it off, or several: one factory may
    /// configure a list of providers).
    func plugins(_ settings: Settings, context: ProviderContext) throws -> PluginSet
}

/// What one factory contributes: credential providers (sign-in methods) and code senders (message delivery).
public struct PluginSet: Sendable {
    public var providers: [any CredentialProvider]
    public var senders: [any CodeSender]

    public init(providers: [any CredentialProvider] = [], senders: [any CodeSender] = []) {
        self.providers = providers
        self.senders = senders
    }
}

/// A factory with its parsed settings, ready to build: what the configuration loader produces for each entry of
/// the registration table (the factory's `Settings` type is erased so the gateway can keep them in one list).
public struct ConfiguredPlugin: Sendable {
    /// The section the settings came from.
    public let section: String
    /// The parsed settings (tests and start-up checks look at them through `settings(as:)`).
    public let settings: any Sendable
    private let build: @Sendable (ProviderContext) throws -> PluginSet
    private let buildStored: (@Sendable ([StoredProviderConfig], ProviderContext) -> [StoredProviderOutcome])?
    /// The admin API's view of the factory's configurations, for factories that offer one
    /// (`ProviderConfigResources`).
    public let configCollection: ProviderConfigCollection?

    /// Parses `section` with `factory`. Throws what the factory throws.
    public init<Factory: ProviderFactory>(_ factory: Factory, section: ConfigSection,
                                          environment: [String: String]) throws {
        let settings = try factory.settings(from: section, environment: environment)
        self.section = factory.section
        self.settings = settings
        self.build = { context in try factory.plugins(settings, context: context) }
        if let stored = factory as? any StoredProviderFactory {
            self.buildStored = { records, context in stored.erasedProviders(fromStored: records, settings: settings, context: context) }
        } else {
            self.buildStored = nil
        }
        self.configCollection = (factory as? any ProviderConfigResources)?.erasedCollection(settings: settings)
    }

    public func plugins(_ context: ProviderContext) throws -> PluginSet { try build(context) }

    public func settings<T>(as type: T.Type) -> T? { settings as? T }

    /// Whether the factory also makes providers from configurations stored in the database.
    public var readsStoredConfigs: Bool { buildStored != nil }

    /// Providers from stored configurations this factory owns (empty for factories that own none).
    public func providers(fromStored records: [StoredProviderConfig], context: ProviderContext) -> [StoredProviderOutcome] {
        buildStored?(records, context) ?? []
    }
}
