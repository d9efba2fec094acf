import AuthCore
import ProviderKit
import Storage
import WireFormats

/// One collection of provider configurations as the admin API sees it: those from the configuration file
/// (read-only) and those stored in the database, each rendered as the API's resource with its `name`.
/// The factory that owns the collection does the translating; this type only decides where a configuration
/// lives and what an operation may do to it.
struct ProviderConfigCatalog: Sendable {
    enum Source: Equatable {
        case file
        case stored
    }

    let collection: ProviderConfigCollection
    let context: ProviderContext
    let projectId: String

    /// `projects/<p>/oauthIdpConfigs/<id>`, the resource's `name` (firebase-admin reads the id from it).
    func name(_ providerId: String) -> String { "projects/\(projectId)/\(collection.name)/\(providerId)" }

    func fileResource(_ providerId: String) -> StoredProviderConfig? {
        collection.fileResources.first { $0.providerId == providerId }
    }

    static func stored(_ providerId: String, _ tx: any StoreTransaction) throws -> StoredProviderConfig? {
        try ProviderDirectory.storedConfigs(tx).first { $0.providerId == providerId }
    }

    /// Where a configuration lives (the file wins: a stored one under a file's id is never served).
    func source(of providerId: String, _ tx: any StoreTransaction) throws -> Source? {
        if fileResource(providerId) != nil { return .file }
        return try Self.stored(providerId, tx) != nil ? .stored : nil
    }

    /// The resource for one configuration, `name` first.
    func render(_ record: StoredProviderConfig, from source: Source) throws -> JSONObject {
        let resource = source == .file ? record.config : try factoryCall { try collection.resource(fromStored: record, context: context) }
        var rendered: JSONObject = ["name": .string(name(record.providerId))]
        for (key, value) in resource where key != "name" { rendered[key] = value }
        return rendered
    }

    /// Every configuration of the collection, sorted by provider id.
    func all(_ tx: any StoreTransaction) throws -> [(StoredProviderConfig, Source)] {
        let fileIds = Set(collection.fileResources.map(\.providerId))
        let stored = try ProviderDirectory.storedConfigs(tx).filter { collection.owns($0.providerId) && !fileIds.contains($0.providerId) }
        return (collection.fileResources.map { ($0, Source.file) } + stored.map { ($0, Source.stored) })
            .sorted { $0.0.providerId < $1.0.providerId }
    }

    /// The stored form of a resource, as the owning factory validates it; its complaints reach the caller as
    /// `INVALID_CONFIG : <what to fix>`.
    func storedConfig(_ resource: JSONObject, providerId: String) throws -> JSONObject {
        try factoryCall { try collection.storedConfig(fromResource: resource, providerId: providerId, context: context) }
    }

    private func factoryCall<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ConfigurationError {
            throw AuthError(.invalidConfig, error.description)
        }
    }

    // MARK: Answers

    func notFound(_ providerId: String) -> AuthError {
        AuthError(.configurationNotFound, "No \(collection.name) entry \(providerId)")
    }

    func readOnly(_ providerId: String) -> AuthError {
        AuthError(.operationNotAllowed, "\(providerId) is set in the gateway's configuration file; change it there")
    }
}
