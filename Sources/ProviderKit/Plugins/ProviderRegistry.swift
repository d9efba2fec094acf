import AuthCore

/// The providers this gateway runs, by id: built from the registration table's factories (and stored
/// configurations) at start and whenever the gateway's provider directory rebuilds it.
public struct ProviderRegistry: Sendable {
    private let providers: [ProviderID: any CredentialProvider]

    /// Throws when two providers claim one id: a configuration mistake (two `oidc` entries with the same
    /// `providerId`, a plugin registered twice) that must stop the start with a message naming the id.
    public init(_ providers: [any CredentialProvider]) throws(ConfigurationError) {
        var byID: [ProviderID: any CredentialProvider] = [:]
        for provider in providers {
            guard byID[provider.id] == nil else {
                throw ConfigurationError("two providers are configured with the id \"\(provider.id)\"; each provider id must be unique")
            }
            byID[provider.id] = provider
        }
        self.providers = byID
    }

    public subscript(id: ProviderID) -> (any CredentialProvider)? { providers[id] }

    /// The provider for `id` if it has the capability `P`.
    public func provider<P>(_ id: ProviderID, as capability: P.Type) -> P? { providers[id] as? P }

    public var ids: [ProviderID] { providers.keys.sorted { $0.rawValue < $1.rawValue } }
}
