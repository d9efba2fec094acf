import AuthCore
import Foundation

/// Builds a `GatewayConfiguration` from, in increasing precedence: defaults, the JSON config file,
/// `GATEHOUSE_*` environment variables, command-line flags.
public enum ConfigurationLoader {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public static func load(flags: [String: String], environment: [String: String]) throws -> GatewayConfiguration {
        var config = GatewayConfiguration()
        if let path = flags["config"] ?? environment["GATEHOUSE_CONFIG"] {
            guard let data = FileManager.default.contents(atPath: path) else { throw Failure("cannot read config file \(path)") }
            let value: JSONValue
            do { value = try JSONParser.parse(Array(data)) } catch {
                throw Failure("config file \(path) is not valid JSON: \(error.description)")
            }
            guard case .object(let object) = value else { throw Failure("config file \(path) must hold a JSON object") }
            try apply(file: object, to: &config)
        }
        try apply(environment: environment, to: &config)
        try apply(flags: flags, to: &config)
        try validate(config)
        return config
    }

    static func apply(file o: JSONObject, to c: inout GatewayConfiguration) throws {
        let known = Set<String>(["projectId", "projectNumber", "host", "port", "dataDir", "issuer", "publicUrl", "apiKeys",
                                 "adminTokens", "trustedAdminNetworks", "trustedProxies", "tokens", "anonymous", "http",
                                 "logLevel", "emulator", "signIn", "apple", "authorizedDomains", "email"])
            .union(DatabaseSettingsLoader.fileKeys)
        if let unknown = o.keys.first(where: { !known.contains($0) }) { throw Failure("unknown config key \"\(unknown)\"") }
        let r = FieldReader(object: o, path: "")
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
        c.trustedProxies = try r.strings("trustedProxies") ?? c.trustedProxies
        c.emulator = try r.bool("emulator") ?? c.emulator
        if let level = try r.string("logLevel") { c.logLevel = try parseLogLevel(level) }
        if let signIn = try r.object("signIn", allowing: ["allowDuplicateEmails"]) {
            c.allowDuplicateEmails = try signIn.bool("allowDuplicateEmails") ?? c.allowDuplicateEmails
        }
        c.authorizedDomains = try r.strings("authorizedDomains") ?? c.authorizedDomains
        if let apple = try r.object("apple") { try applyApple(apple, to: &c.apple) }
        if let email = try r.object("email") { try EmailSettingsLoader.apply(email, to: &c.email) }
        if let tokens = try r.object("tokens", allowing: ["idTokenLifetimeSeconds", "keyCacheMaxAgeSeconds", "clockSkewSeconds"]) {
            c.idTokenLifetimeSeconds = try tokens.int64("idTokenLifetimeSeconds") ?? c.idTokenLifetimeSeconds
            c.keyCacheMaxAgeSeconds = try tokens.int64("keyCacheMaxAgeSeconds") ?? c.keyCacheMaxAgeSeconds
            c.clockSkewSeconds = try tokens.int64("clockSkewSeconds") ?? c.clockSkewSeconds
        }
        if let anonymous = try r.object("anonymous", allowing: ["enabled", "signUpsPerIPPerHour", "cleanup"]) {
            c.anonymous.enabled = try anonymous.bool("enabled") ?? c.anonymous.enabled
            c.anonymous.signUpsPerIPPerHour = try anonymous.int("signUpsPerIPPerHour") ?? c.anonymous.signUpsPerIPPerHour
            if let cleanup = try anonymous.object("cleanup", allowing: ["enabled", "maxAgeDays", "intervalSeconds"]) {
                c.anonymousCleanup.enabled = try cleanup.bool("enabled") ?? c.anonymousCleanup.enabled
                c.anonymousCleanup.maxAgeDays = try cleanup.int64("maxAgeDays") ?? c.anonymousCleanup.maxAgeDays
                c.anonymousCleanup.intervalSeconds = try cleanup.int64("intervalSeconds") ?? c.anonymousCleanup.intervalSeconds
            }
        }
        if let http = try r.object("http", allowing: ["maxBodyBytes", "maxHeaderBytes", "maxHeaderCount", "requestTimeoutSeconds",
                                                    "idleTimeoutSeconds", "maxConnections", "maxConnectionsPerClient",
                                                    "eventLoops"]) {
            c.http.maxBodyBytes = try http.int("maxBodyBytes") ?? c.http.maxBodyBytes
            c.http.maxHeaderBytes = try http.int("maxHeaderBytes") ?? c.http.maxHeaderBytes
            c.http.maxHeaderCount = try http.int("maxHeaderCount") ?? c.http.maxHeaderCount
            c.http.requestTimeoutSeconds = try http.double("requestTimeoutSeconds") ?? c.http.requestTimeoutSeconds
            c.http.idleTimeoutSeconds = try http.double("idleTimeoutSeconds") ?? c.http.idleTimeoutSeconds
            c.http.maxConnections = try http.int("maxConnections") ?? c.http.maxConnections
            c.http.maxConnectionsPerClient = try http.int("maxConnectionsPerClient") ?? c.http.maxConnectionsPerClient
            c.http.eventLoops = try http.int("eventLoops") ?? c.http.eventLoops
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
        if let v = e["GATEHOUSE_APPLE_PRIVATE_KEY"], !v.isEmpty { c.apple.privateKeyPEM = v }
        EmailSettingsLoader.apply(environment: e, to: &c.email)
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
        for network in c.trustedAdminNetworks + c.trustedProxies where NetworkRange(network) == nil {
            throw Failure("\"\(network)\" is not an IP address or CIDR range")
        }
        guard c.http.maxConnections >= 1 else { throw Failure("http.maxConnections must be at least 1") }
        guard c.http.maxConnectionsPerClient >= 1 else {
            throw Failure("http.maxConnectionsPerClient must be at least 1")
        }
        if c.adminTokens.contains(where: { $0.utf8.count < 16 }) {
            throw Failure("adminTokens must be at least 16 characters (they are passwords)")
        }
        if let problem = c.apple.problem { throw Failure(problem) }
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

/// Typed reads from a config JSON object with messages that name the offending key.
struct FieldReader {
    let object: JSONObject
    let path: String

    private func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    private func fail(_ key: String, _ kind: String) -> ConfigurationLoader.Failure {
        ConfigurationLoader.Failure("config key \"\(name(key))\" must be \(kind)")
    }

    func string(_ key: String) throws -> String? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let s = v.stringValue else { throw fail(key, "a string") }
        return s
    }
    func bool(_ key: String) throws -> Bool? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let b = v.boolValue else { throw fail(key, "true or false") }
        return b
    }
    func int64(_ key: String) throws -> Int64? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let i = v.intValue else { throw fail(key, "an integer") }
        return i
    }
    func int(_ key: String) throws -> Int? { try int64(key).map { Int($0) } }
    func double(_ key: String) throws -> Double? {
        guard let v = object[key], !v.isNull else { return nil }
        if let i = v.intValue { return Double(i) }
        if case .double(let d) = v { return d }
        throw fail(key, "a number")
    }
    func strings(_ key: String) throws -> [String]? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let items = v.arrayValue else { throw fail(key, "a list of strings") }
        return try items.map { item in
            guard let s = item.stringValue else { throw fail(key, "a list of strings") }
            return s
        }
    }
    /// A nested section whose keys must all be in `allowed`: a misspelt key is an error at start, never a
    /// silently kept default.
    func object(_ key: String, allowing allowed: Set<String>) throws -> FieldReader? {
        guard let section = try object(key) else { return nil }
        if let unknown = section.object.keys.first(where: { !allowed.contains($0) }) {
            throw ConfigurationLoader.Failure("unknown config key \"\(name(key)).\(unknown)\"")
        }
        return section
    }

    func object(_ key: String) throws -> FieldReader? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let o = v.objectValue else { throw fail(key, "an object") }
        return FieldReader(object: o, path: name(key))
    }
}
