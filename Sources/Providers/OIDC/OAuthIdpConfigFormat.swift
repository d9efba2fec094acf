import AuthCore
import Federation
import ProviderKit
import WireFormats

/// Firebase's `OAuthIdpConfig` resource (`clientId`, `issuer`, `displayName`, `enabled`, `clientSecret`,
/// `responseType`) plus Gatehouse's extension object `gatehouse`, for what Firebase has no field for (several
/// audiences, claim mapping, nonce and email rules, algorithms, endpoints):
///
/// ```json
/// {"clientId": "web", "issuer": "https://idp.example", "enabled": true, "responseType": {"idToken": true},
///  "gatehouse": {"additionalClientIds": ["ios"], "emailLinking": {"verifiedEmails": true}}}
/// ```
///
/// The stored form is the same object with the client secret sealed under the master key (bound to the provider
/// id, so a sealed secret cannot be moved to another provider's configuration).
enum OAuthIdpConfigFormat {
    static let resourceKeys: Set = ["name", "clientId", "issuer", "displayName", "enabled", "clientSecret", "responseType", "gatehouse"]
    static let extensionKeys = OIDCSettingsReader.tunableKeys.union(["additionalClientIds"])
    static let sealedSecretKey = "sealedClientSecret"

    static func sealingPurpose(_ providerId: String) -> String { "oidc.client-secret.v1/" + providerId }

    /// Settings from a resource (created, or patched), validated; errors name the resource field.
    static func settings(fromResource resource: JSONObject, providerId: String, secret: String?) throws -> OIDCProviderSettings {
        let section = ConfigSection(resource, path: "")
        try section.requireKnownKeys(resourceKeys.union([sealedSecretKey]))
        if let problem = OIDCProviderID.problem(providerId) { throw ConfigurationError(problem) }
        guard let clientId = try section.string("clientId"), !clientId.isEmpty else { throw ConfigurationError("clientId is required") }
        guard let issuer = try section.string("issuer"), !issuer.isEmpty else { throw ConfigurationError("issuer is required") }
        let extensionSection = try section.section("gatehouse", allowing: extensionKeys)
        var settings = OIDCProviderSettings(
            providerId: providerId, displayName: try section.string("displayName"), enabled: try section.bool("enabled") ?? false,
            issuer: issuer, clientIds: [clientId] + (try extensionSection?.strings("additionalClientIds") ?? []),
            clientSecret: secret.flatMap { $0.isEmpty ? nil : $0 }, responseType: try responseType(section))
        if let extensionSection { try OIDCSettingsReader.applyTunables(extensionSection, to: &settings) }
        if let problem = settings.problem(at: "") {
            throw ConfigurationError(problem.replacingPrefix("clientIds", with: "clientId or gatehouse.additionalClientIds"))
        }
        return settings
    }

    /// Firebase's `{idToken, code}` (one of them; `token` is not supported, as in Firebase). Neither means idToken.
    static func responseType(_ section: ConfigSection) throws -> OIDCProviderSettings.ResponseType {
        guard let types = try section.section("responseType", allowing: ["idToken", "code", "token"]) else { return .idToken }
        if try types.bool("token") == true { throw ConfigurationError("responseType.token is not supported") }
        switch (try types.bool("idToken") ?? false, try types.bool("code") ?? false) {
        case (true, true): throw ConfigurationError("responseType: set idToken or code to true, not both")
        case (_, true): return .code
        default: return .idToken
        }
    }

    /// The resource for settings; the secret only when asked for (configurations from the file never show it).
    static func resource(_ settings: OIDCProviderSettings, includingSecret: Bool) -> JSONObject {
        var resource: JSONObject = ["clientId": .string(settings.clientIds.first ?? ""), "issuer": .string(settings.issuer)]
        resource.set("displayName", settings.displayName)
        resource["enabled"] = .bool(settings.enabled)
        if includingSecret { resource.set("clientSecret", settings.clientSecret) }
        resource["responseType"] = ["idToken": .bool(settings.responseType == .idToken), "code": .bool(settings.responseType == .code)]
        resource["gatehouse"] = .object(extensionObject(settings))
        return resource
    }

    /// Every tunable, written out (a GET shows what is in force, and a patch of it round-trips unchanged).
    static func extensionObject(_ settings: OIDCProviderSettings) -> JSONObject {
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        var claims = JSONObject()
        for (key, path) in ClaimNames.keys { claims[key] = .string(settings.claims[keyPath: path]) }
        var linking: JSONObject = ["verifiedEmails": .bool(settings.emailLinking.verifiedEmails),
                                   "domains": strings(settings.emailLinking.domains)]
        linking.set("hostedDomainClaim", settings.emailLinking.hostedDomainClaim)
        var endpoints = JSONObject()
        for (key, url) in settings.endpoints.all { endpoints.set(key, url) }
        var object: JSONObject = [
            "additionalClientIds": strings(Array(settings.clientIds.dropFirst())), "scopes": strings(settings.scopes),
            "claims": .object(claims),
            "nonce": ["required": .bool(settings.nonceRequired), "acceptRaw": .bool(settings.acceptsRawNonce)],
            "emailLinking": .object(linking), "algorithms": strings(settings.algorithms.sorted().map(\.rawValue)),
            "clockSkewSeconds": .int(settings.clockSkewSeconds),
            "keyRefreshIntervalSeconds": .int(settings.keyRefreshIntervalSeconds),
            "acceptUserInfoAccessTokens": .bool(settings.acceptsUserInfoAccessTokens),
            "endpoints": .object(endpoints),
        ]
        object.set("maxTokenAgeSeconds", settings.maxTokenAgeSeconds)
        return object
    }

    // MARK: Stored form

    static func stored(fromResource resource: JSONObject, providerId: String, sealer: Sealer) throws -> JSONObject {
        // The sealed form is ours to write: a client may not hand one in (it would be dropped anyway).
        if resource[sealedSecretKey] != nil { throw ConfigurationError("unknown config key \"\(sealedSecretKey)\"") }
        let secret = try ConfigSection(resource, path: "").string("clientSecret")
        let settings = try settings(fromResource: resource, providerId: providerId, secret: secret)
        var stored = Self.resource(settings, includingSecret: false)
        if let secret = settings.clientSecret {
            stored[sealedSecretKey] = .string(Base64.encode(try sealer.seal(Array(secret.utf8), purpose: sealingPurpose(providerId))))
        }
        return stored
    }

    static func settings(fromStored record: StoredProviderConfig, sealer: Sealer) throws -> OIDCProviderSettings {
        try settings(fromResource: record.config, providerId: record.providerId, secret: try secret(of: record, sealer: sealer))
    }

    static func resource(fromStored record: StoredProviderConfig, sealer: Sealer) throws -> JSONObject {
        resource(try settings(fromStored: record, sealer: sealer), includingSecret: true)
    }

    private static func secret(of record: StoredProviderConfig, sealer: Sealer) throws -> String? {
        guard let text = record.config[sealedSecretKey]?.stringValue else { return nil }
        guard let sealed = Base64.decode(text) else { throw ConfigurationError("the stored client secret is not base64") }
        do {
            return String(decoding: try sealer.open(sealed, purpose: sealingPurpose(record.providerId)), as: UTF8.self)
        } catch {
            throw ConfigurationError("the stored client secret does not open with this master key")
        }
    }
}

extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
