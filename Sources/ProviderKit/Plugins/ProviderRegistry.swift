import AuthCore

/// The providers this gateway runs, by id. Built once at start-up from the gateway's registration table.
public struct ProviderRegistry: Sendable {
    private let providers: [ProviderID: any CredentialProvider]

    /// - Precondition: ids are unique (two plugins claiming one id is a programming error caught at start).
    public init(_ providers: [any CredentialProvider]) {
        var byID: [ProviderID: any CredentialProvider] = [:]
        for provider in providers {
            precondition(byID[provider.id] == nil, "two providers registered for \(provider.id)")
            byID[provider.id] = provider
        }
        self.providers = byID
    }

    public subscript(id: ProviderID) -> (any CredentialProvider)? { providers[id] }

    /// The provider for `id` if it has the capability `P`.
    public func provider<P>(_ id: ProviderID, as capability: P.Type) -> P? { providers[id] as? P }

    public var ids: [ProviderID] { providers.keys.sorted { $0.rawValue < $1.rawValue } }
}
