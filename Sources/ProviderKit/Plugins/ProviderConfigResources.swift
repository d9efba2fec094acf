import AuthCore
import WireFormats

/// A stored-provider factory whose configurations the admin API lists and edits as one of Firebase's resource
/// collections (`oauthIdpConfigs` for OpenID Connect providers, so firebase-admin's
/// `create_oidc_provider_config` & co. work unchanged).
///
/// The work is split along the plugin boundary: the gateway serves the API (routes, paging, update masks,
/// storage, the rule that configurations from the file are read-only) and never learns a provider's format; the
/// factory translates between the API's resource and its stored format, seals what is secret, and decides what
/// is valid.
public protocol ProviderConfigResources: StoredProviderFactory {
    /// The collection's name in the API path (`oauthIdpConfigs`).
    var resourceCollection: String { get }

    /// The stored configuration for a resource: a created one, or the current one with a patch applied. Seals
    /// secrets with `context.sealer`. Throws `ConfigurationError` naming the resource field to fix.
    func storedConfig(fromResource resource: JSONObject, providerId: String,
                      context: ProviderContext) throws -> JSONObject

    /// The resource for a stored configuration, in the API's field names (secrets opened).
    func resource(fromStored record: StoredProviderConfig, context: ProviderContext) throws -> JSONObject

    /// The configurations from the file, as resources: listed and read through the API, never changed by it.
    /// Secrets from the file are not shown.
    func fileResources(_ settings: Settings) -> [StoredProviderConfig]
}

/// One factory's resource collection with its settings bound, as the gateway's admin API uses it (the factory's
/// `Settings` type erased, like `ConfiguredPlugin`).
public struct ProviderConfigCollection: Sendable {
    public let name: String
    /// The configurations from the file, as resources, sorted by provider id.
    public let fileResources: [StoredProviderConfig]
    private let owns: @Sendable (String) -> Bool
    private let toStored: @Sendable (JSONObject, String, ProviderContext) throws -> JSONObject
    private let toResource: @Sendable (StoredProviderConfig, ProviderContext) throws -> JSONObject

    init<Factory: ProviderConfigResources>(_ factory: Factory, settings: Factory.Settings) {
        name = factory.resourceCollection
        fileResources = factory.fileResources(settings).sorted { $0.providerId < $1.providerId }
        owns = { factory.owns($0) }
        toStored = { try factory.storedConfig(fromResource: $0, providerId: $1, context: $2) }
        toResource = { try factory.resource(fromStored: $0, context: $1) }
    }

    /// Whether `providerId` names a configuration of this collection (`oidc.` prefix).
    public func owns(_ providerId: String) -> Bool { owns(providerId) }

    public func storedConfig(fromResource resource: JSONObject, providerId: String,
                             context: ProviderContext) throws -> JSONObject {
        try toStored(resource, providerId, context)
    }

    public func resource(fromStored record: StoredProviderConfig, context: ProviderContext) throws -> JSONObject {
        try toResource(record, context)
    }
}

extension ProviderConfigResources {
    func erasedCollection(settings: any Sendable) -> ProviderConfigCollection? {
        guard let settings = settings as? Settings else { return nil }
        return ProviderConfigCollection(self, settings: settings)
    }
}
