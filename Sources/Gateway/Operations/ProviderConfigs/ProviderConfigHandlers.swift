import AuthCore
import HTTP
import ProviderKit
import Storage
import WireFormats

/// Firebase's `oauthIdpConfigs` admin resource (`/v2/projects/{p}/oauthIdpConfigs[/{id}]`): create (with the
/// `oauthIdpConfigId` query parameter), get, list (`pageSize`, `pageToken`), patch (`updateMask`) and delete, as
/// firebase-admin's `*_oidc_provider_config` calls send them.
///
/// Configurations from the file are listed and read but never changed here; created ones are stored in the
/// database, and every instance sharing it builds them within `ProviderDirectory.refreshInterval` (this one at
/// once). What a configuration may contain is the owning factory's decision (`ProviderConfigResources`).
enum ProviderConfigHandlers {
    static let collection = "oauthIdpConfigs"
    static let maxPageSize = 100

    static func create(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let catalog = try catalog(services)
        let providerId = query("oauthIdpConfigId", context) ?? ""
        guard !providerId.isEmpty else { throw AuthError(.invalidProviderId, "oauthIdpConfigId is required") }
        guard catalog.collection.owns(providerId) else {
            throw AuthError(.invalidProviderId, "\(providerId) is not an id of \(collection) (oidc.<name>)")
        }
        if catalog.fileResource(providerId) != nil { throw exists(providerId) }
        let stored = try catalog.storedConfig(context.body.object, providerId: providerId)
        try await services.store.write { tx in
            guard try ProviderConfigCatalog.stored(providerId, tx) == nil else { throw exists(providerId) }
            try ProviderDirectory.setStoredConfig(providerId, stored, tx)
        }
        await serveChanges(services)
        return .json(try catalog.render(StoredProviderConfig(providerId: providerId, config: stored), from: .stored))
    }

    static func get(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let catalog = try catalog(services)
        let providerId = context.parameters["providerId"] ?? ""
        if let file = catalog.fileResource(providerId) { return .json(try catalog.render(file, from: .file)) }
        guard let stored = try await services.store.read({ tx in try ProviderConfigCatalog.stored(providerId, tx) }),
              catalog.collection.owns(providerId) else { throw catalog.notFound(providerId) }
        return .json(try catalog.render(stored, from: .stored))
    }

    /// Pages in provider-id order; the page token is the last id of the previous page, so a configuration
    /// created or deleted between pages neither repeats nor shifts the others.
    static func list(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let catalog = try catalog(services)
        let pageSize = try pageSize(query("pageSize", context))
        let after = query("pageToken", context) ?? ""
        let remaining = try await services.store.read { tx in try catalog.all(tx) }.filter { $0.0.providerId > after }
        let page = remaining.prefix(pageSize)
        var response = JSONObject()
        if !page.isEmpty { response["oauthIdpConfigs"] = .array(try page.map { .object(try catalog.render($0.0, from: $0.1)) }) }
        if remaining.count > page.count, let last = page.last { response["nextPageToken"] = .string(last.0.providerId) }
        return .json(response)
    }

    static func patch(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let catalog = try catalog(services)
        let providerId = context.parameters["providerId"] ?? ""
        let patch = context.body.object
        let paths = UpdateMask.paths(query("updateMask", context), body: patch)
        let stored = try await services.store.write { tx -> JSONObject in
            switch try catalog.source(of: providerId, tx) {
            case nil: throw catalog.notFound(providerId)
            case .file?: throw catalog.readOnly(providerId)
            case .stored?: break
            }
            guard let current = try ProviderConfigCatalog.stored(providerId, tx) else { throw catalog.notFound(providerId) }
            let resource = UpdateMask.apply(paths, from: patch, to: try catalog.render(current, from: .stored))
            let stored = try catalog.storedConfig(resource, providerId: providerId)
            try ProviderDirectory.setStoredConfig(providerId, stored, tx)
            return stored
        }
        await serveChanges(services)
        return .json(try catalog.render(StoredProviderConfig(providerId: providerId, config: stored), from: .stored))
    }

    static func delete(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let catalog = try catalog(services)
        let providerId = context.parameters["providerId"] ?? ""
        try await services.store.write { tx in
            switch try catalog.source(of: providerId, tx) {
            case nil: throw catalog.notFound(providerId)
            case .file?: throw catalog.readOnly(providerId)
            case .stored?: try ProviderDirectory.setStoredConfig(providerId, nil, tx)
            }
        }
        await serveChanges(services)
        return .json(JSONObject())
    }

    // MARK: Helpers

    private static func catalog(_ services: GatewayServices) throws -> ProviderConfigCatalog {
        guard let collection = services.providers.configCollection(named: collection) else {
            throw AuthError(.configurationNotFound, "No provider plugin serves \(Self.collection)")
        }
        return ProviderConfigCatalog(collection: collection, context: services.providers.context,
                                     projectId: services.configuration.projectId)
    }

    /// Google's rule: absent, zero or negative means the default, more than the maximum means the maximum; a value
    /// that is no integer is refused.
    static func pageSize(_ text: String?) throws -> Int {
        guard let text, !text.isEmpty else { return maxPageSize }
        guard let requested = Int(text) else {
            throw WireError.invalidPayload("Invalid value at 'page_size' (TYPE_INT32), \"\(text.prefix(40))\"", reason: "invalid")
        }
        return requested <= 0 ? maxPageSize : min(requested, maxPageSize)
    }

    private static func query(_ name: String, _ context: OperationContext) -> String? {
        FormURLEncoding.value(named: name, in: context.request.query)
    }

    private static func exists(_ providerId: String) -> AuthError {
        AuthError(.configurationExists, "\(providerId) already exists")
    }

    /// This instance serves the change at once; the others pick it up on their next refresh. A refresh that fails
    /// here is retried by the refresh loop (and logged there), so the change already committed is not reported
    /// as failed.
    private static func serveChanges(_ services: GatewayServices) async {
        guard let skipped = try? await services.providers.refresh(from: services.store) else { return }
        for (id, reason) in skipped {
            services.logger.error("stored provider configuration skipped", [("provider", .string(id)), ("reason", .string(reason))])
        }
    }
}
