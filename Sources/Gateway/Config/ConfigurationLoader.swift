import AuthCore
import Foundation
import HTTP
import IPNetworks
import ProviderKit
import WireFormats

/// Builds a `GatewayConfiguration` from, in increasing precedence: defaults, the JSON config file,
/// `GATEHOUSE_*` environment variables, command-line flags.
public enum ConfigurationLoader {
    /// A problem an operator must fix, named by its key (the same type plugins throw for their sections).
    public typealias Failure = ConfigurationError

    /// Loads and validates the configuration, including every plugin's section (parsed by the plugin's factory,
    /// so a bad `apple` or `email` section stops the gateway at start with a message naming the key).
    public static func load(flags: [String: String], environment: [String: String],
                            factories: [any ProviderFactory] = ProviderRegistrations.factories) throws -> GatewayConfiguration {
        var config = GatewayConfiguration()
        config.environment = environment.filter { $0.key.hasPrefix("GATEHOUSE_") }
        if let path = flags["config"] ?? environment["GATEHOUSE_CONFIG"] {
            guard let data = FileManager.default.contents(atPath: path) else { throw Failure("cannot read config file \(path)") }
            let value: JSONValue
            do { value = try JSONParser.parse(Array(data)) } catch {
                throw Failure("config file \(path) is not valid JSON: \(error.description)")
            }
            guard case .object(let object) = value else { throw Failure("config file \(path) must hold a JSON object") }
            try apply(file: object, to: &config, pluginSections: Set(factories.map(\.section)))
        }
        try apply(environment: environment, to: &config)
        try apply(flags: flags, to: &config)
        try validate(config)
        _ = try configuredPlugins(config, factories: factories)
        return config
    }

    /// The core's own keys; every other top-level key must be a plugin's section.
    static let coreKeys: Set<String> = Set(["projectId", "projectNumber", "host", "port", "dataDir", "issuer", "publicUrl", "apiKeys",
                                "adminTokens", "trustedAdminNetworks", "metricsNetworks", "trustedProxies", "tokens", "http", "logLevel",
                                "emulator", "signIn", "authorizedDomains"]).union(DatabaseSettingsLoader.fileKeys)

    /// Each factory parses its section (an absent section reads as empty, so defaults apply).
    static func configuredPlugins(_ config: GatewayConfiguration,
                                  factories: [any ProviderFactory]) throws -> [ConfiguredPlugin] {
        try factories.map { factory in
            try ConfiguredPlugin(factory, section: ConfigSection(config.pluginSections[factory.section] ?? JSONObject(),
                                                                 path: factory.section),
                                 environment: config.environment)
        }
    }

    static func apply(file o: JSONObject, to c: inout GatewayConfiguration, pluginSections: Set<String>) throws {
        if let unknown = o.keys.first(where: { !coreKeys.contains($0) && !pluginSections.contains($0) }) {
            throw Failure("unknown config key \"\(unknown)\"")
        }
        for section in pluginSections {
            guard let value = o[section], !value.isNull else { continue }
            guard let object = value.objectValue else { throw Failure("config key \"\(section)\" must be an object") }
            c.pluginSections[section] = object
        }
        let r = ConfigSection(o, path: "")
        c.projectId = try r.string("projectId") ?? c.projectId
        c.projectNumber = try r.string("projectNumber") ?? c.projectNumber
        c.host = try r.string("host") ?? c.host
        c.port = try r.int("port") ?? c.port
        c.dataDirectory = try r.string("dataDir") ?? c.dataDirectory
        try DatabaseSettingsLoader.apply(file: r, to: &c.database)
        c.issuer = try r.string("issuer") ?? c.issuer
        c.publicURL = try r.string("publicUrl") ?? c.publicURL
        c.apiKeys = try r.strings("apiKeys") ?? c.apiKeys
        c.adminTokens = try r.strings("adminTokens") ?? c.adminTokens
        c.trustedAdminNetworks = try r.strings("trustedAdminNetworks") ?? c.trustedAdminNetworks
        c.metricsNetworks = try r.strings("metricsNetworks") ?? c.metricsNetworks
        c.trustedProxies = try r.strings("trustedProxies") ?? c.trustedProxies
        c.emulator = try r.bool("emulator") ?? c.emulator
        if let level = try r.string("logLevel") { c.logLevel = try parseLogLevel(level) }
        if let signIn = try r.section("signIn", allowing: ["allowDuplicateEmails"]) {
            c.allowDuplicateEmails = try signIn.bool("allowDuplicateEmails") ?? c.allowDuplicateEmails
        }
        c.authorizedDomains = try r.strings("authorizedDomains") ?? c.authorizedDomains
        if let tokens = try r.section("tokens", allowing: ["idTokenLifetimeSeconds", "keyCacheMaxAgeSeconds", "clockSkewSeconds"]) {
            c.idTokenLifetimeSeconds = try tokens.int64("idTokenLifetimeSeconds") ?? c.idTokenLifetimeSeconds
            c.keyCacheMaxAgeSeconds = try tokens.int64("keyCacheMaxAgeSeconds") ?? c.keyCacheMaxAgeSeconds
            c.clockSkewSeconds = try tokens.int64("clockSkewSeconds") ?? c.clockSkewSeconds
        }
        if let http = try r.section("http", allowing: ["maxBodyBytes", "maxImportBodyBytes", "maxHeaderBytes", "maxHeaderCount", "requestTimeoutSeconds",
                                                    "idleTimeoutSeconds", "maxConnections", "maxConnectionsPerClient",
                                                    "eventLoops", "eventLoopScheduling"]) {
            c.http.maxBodyBytes = try http.int("maxBodyBytes") ?? c.http.maxBodyBytes
            c.http.maxImportBodyBytes = try http.int("maxImportBodyBytes") ?? c.http.maxImportBodyBytes
            c.http.maxHeaderBytes = try http.int("maxHeaderBytes") ?? c.http.maxHeaderBytes
            c.http.maxHeaderCount = try http.int("maxHeaderCount") ?? c.http.maxHeaderCount
            c.http.requestTimeoutSeconds = try http.double("requestTimeoutSeconds") ?? c.http.requestTimeoutSeconds
            c.http.idleTimeoutSeconds = try http.double("idleTimeoutSeconds") ?? c.http.idleTimeoutSeconds
            c.http.maxConnections = try http.int("maxConnections") ?? c.http.maxConnections
            c.http.maxConnectionsPerClient = try http.int("maxConnectionsPerClient") ?? c.http.maxConnectionsPerClient
            c.http.eventLoops = try http.int("eventLoops") ?? c.http.eventLoops
            if let text = try http.string("eventLoopScheduling") {
                guard let scheduling = EventLoopScheduling(rawValue: text) else {
                    let known = EventLoopScheduling.allCases.map(\.rawValue).joined(separator: ", ")
                    throw Failure("http.eventLoopScheduling must be one of \(known)")
                }
                c.http.eventLoopScheduling = scheduling
            }
        }
    }

    static func apply(environment e: [String: String], to c: inout GatewayConfiguration) throws {
        if let v = e["GATEHOUSE_PROJECT_ID"] { c.projectId = v }
        if let v = e["GATEHOUSE_HOST"] { c.host = v }
        if let v = e["GATEHOUSE_PORT"] { c.port = try integer(v, "GATEHOUSE_PORT") }
        if let v = e["GATEHOUSE_DATA_DIR"] { c.dataDirectory = v }
        if let v = e["GATEHOUSE_ISSUER"] { c.issuer = v }
        if let v = e["GATEHOUSE_PUBLIC_URL"] { c.publicURL = v }
        if let v = e["GATEHOUSE_API_KEYS"] { c.apiKeys = list(v) }
        if let v = e["GATEHOUSE_ADMIN_TOKENS"] { c.adminTokens = list(v) }
        if let v = e["GATEHOUSE_LOG_LEVEL"] { c.logLevel = try parseLogLevel(v) }
        try DatabaseSettingsLoader.apply(environment: e, to: &c.database)
    }

    static func apply(flags f: [String: String], to c: inout GatewayConfiguration) throws {
        if let v = f["project-id"] { c.projectId = v }
        if let v = f["host"] { c.host = v }
        if let v = f["port"] { c.port = try integer(v, "--port") }
        if let v = f["data-dir"] { c.dataDirectory = v }
        if f["emulator"] != nil { c.emulator = true }
        if f["allow-non-loopback"] != nil { c.allowNonLoopback = true }
        DatabaseSettingsLoader.apply(flags: f, to: &c.database)
    }

    static func validate(_ c: GatewayConfiguration) throws {
        guard !c.projectId.isEmpty, c.projectId.utf8.count <= 128 else { throw Failure("projectId must be 1-128 characters") }
        guard (0...65535).contains(c.port) else { throw Failure("port must be 0-65535") }
        guard c.idTokenLifetimeSeconds >= 1 else { throw Failure("tokens.idTokenLifetimeSeconds must be positive") }
        guard (0...600).contains(c.clockSkewSeconds) else { throw Failure("tokens.clockSkewSeconds must be 0-600") }
        guard c.keyCacheMaxAgeSeconds >= 0 else { throw Failure("tokens.keyCacheMaxAgeSeconds must not be negative") }
        for network in c.trustedAdminNetworks + c.trustedProxies + c.metricsNetworks where NetworkRange(network) == nil {
            throw Failure("\"\(network)\" is not an IP address or CIDR range")
        }
        guard c.http.maxConnections >= 1 else { throw Failure("http.maxConnections must be at least 1") }
        guard c.http.maxConnectionsPerClient >= 1 else {
            throw Failure("http.maxConnectionsPerClient must be at least 1")
        }
        if c.adminTokens.contains(where: { $0.utf8.count < 16 }) {
            throw Failure("adminTokens must be at least 16 characters (they are passwords)")
        }
        try DatabaseSettingsLoader.validate(c.database)
    }

    static func integer(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text) else { throw Failure("\(name) must be an integer, got \"\(text)\"") }
        return value
    }

    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func parseLogLevel(_ text: String) throws -> LogLevel {
        guard let level = LogLevel(rawValue: text.lowercased()) else {
            throw Failure("logLevel must be one of debug, info, warning, error")
        }
        return level
    }
}
