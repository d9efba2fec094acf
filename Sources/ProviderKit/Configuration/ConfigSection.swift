import Foundation
import WireFormats

/// A configuration problem an operator must fix, found at start-up. The message names the full key
/// (`apple.bundleIds`, `email.smtp.url`) so the fix is obvious without reading code.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One section of the JSON configuration file, read with types and with messages that name the offending key.
///
/// Plugins parse their own section with it, so adding a provider adds no field or branch to the gateway's
/// configuration loader. An absent section reads as an empty one: every key is optional and the plugin keeps
/// its defaults.
public struct ConfigSection: Sendable {
    public let object: JSONObject
    /// The dotted path of this section (`""` at the top, `"email.smtp"` below).
    public let path: String

    public init(_ object: JSONObject = JSONObject(), path: String) {
        self.object = object
        self.path = path
    }

    /// The full name of `key` in messages: `apple.baseUrl`.
    public func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func fail(_ key: String, _ kind: String) -> ConfigurationError {
        ConfigurationError("config key \"\(name(key))\" must be \(kind)")
    }

    /// Refuses keys outside `known`: a misspelt key is an error at start, never a silently kept default.
    public func requireKnownKeys(_ known: Set<String>) throws(ConfigurationError) {
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw ConfigurationError("unknown config key \"\(name(unknown))\"")
        }
    }

    public func has(_ key: String) -> Bool { object[key].map { !$0.isNull } ?? false }

    public func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let s = v.stringValue else { throw fail(key, "a string") }
        return s
    }

    public func bool(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let b = v.boolValue else { throw fail(key, "true or false") }
        return b
    }

    public func int64(_ key: String) throws(ConfigurationError) -> Int64? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let i = v.intValue else { throw fail(key, "an integer") }
        return i
    }

    public func int(_ key: String) throws(ConfigurationError) -> Int? { try int64(key).map { Int($0) } }

    public func double(_ key: String) throws(ConfigurationError) -> Double? {
        guard let v = object[key], !v.isNull else { return nil }
        if let i = v.intValue { return Double(i) }
        if case .double(let d) = v { return d }
        throw fail(key, "a number")
    }

    public func strings(_ key: String) throws(ConfigurationError) -> [String]? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let items = v.arrayValue else { throw fail(key, "a list of strings") }
        var result: [String] = []
        for item in items {
            guard let s = item.stringValue else { throw fail(key, "a list of strings") }
            result.append(s)
        }
        return result
    }

    /// A nested section whose keys must all be in `allowed`.
    public func section(_ key: String, allowing allowed: Set<String>) throws(ConfigurationError) -> ConfigSection? {
        guard let nested = try section(key) else { return nil }
        try nested.requireKnownKeys(allowed)
        return nested
    }

    /// A nested section (any keys; the caller checks them).
    public func section(_ key: String) throws(ConfigurationError) -> ConfigSection? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let o = v.objectValue else { throw fail(key, "an object") }
        return ConfigSection(o, path: name(key))
    }

    /// A list of sections (`oidc: [{...}, {...}]`), each named `key[i]` in messages.
    public func sections(_ key: String) throws(ConfigurationError) -> [ConfigSection]? {
        guard let v = object[key], !v.isNull else { return nil }
        guard let items = v.arrayValue else { throw fail(key, "a list of objects") }
        var result: [ConfigSection] = []
        for (index, item) in items.enumerated() {
            guard let o = item.objectValue else { throw fail(key, "a list of objects") }
            result.append(ConfigSection(o, path: "\(name(key))[\(index)]"))
        }
        return result
    }

    /// A secret kept out of the config file (which tends to be committed): the environment variable when set,
    /// else the contents of the file named by `fileKey`, without a trailing newline; nil when neither is given.
    /// An inline value under `inlineKey` (for settings that always allowed one, like the SMTP password) counts
    /// too, but never together with the file.
    public func secret(fileKey: String, environmentVariable: String?, environment: [String: String],
                       inlineKey: String? = nil) throws(ConfigurationError) -> String? {
        if let variable = environmentVariable, let value = environment[variable], !value.isEmpty { return value }
        var inline: String?
        if let inlineKey { inline = try string(inlineKey) }
        switch (inline, try string(fileKey)) {
        case (nil, nil): return nil
        case (let value?, nil): return value
        case (nil, let file?): return try Self.readSecretFile(file, key: name(fileKey))
        case (_?, _?): throw ConfigurationError("\(path): give \(inlineKey ?? "") or \(fileKey), not both")
        }
    }

    static func readSecretFile(_ path: String, key: String) throws(ConfigurationError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("cannot read \(key) \(path)")
        }
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
