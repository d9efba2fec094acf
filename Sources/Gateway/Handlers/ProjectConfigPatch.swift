import AuthCore
import WireFormats

/// What a `PATCH` of the project config changes, decided from the body and the `updateMask` before anything is
/// written (a pure function, so every mask case is tested on its own).
///
/// Google's field-mask rules: each mask path names a field at any depth; a path naming a message (`signIn`,
/// `emailPrivacyConfig`) replaces the whole sub-object, so a served field under it that the body leaves out
/// goes back to its default, as does a masked leaf the body leaves out. Without a mask (or with an empty one)
/// the fields present in the body are the mask (AIP-134). Fields the gateway does not serve yet (blocking
/// functions, MFA, SMS regions, the sign-in method switches that live in the config file) are refused with
/// `INVALID_CONFIG`, never accepted and dropped: an admin must not believe a setting took effect.
struct ProjectConfigPatch: Sendable, Equatable {
    /// New values; nil leaves a field as it is.
    var allowDuplicateEmails: Bool?
    var improvedEmailPrivacy: Bool?

    struct Defaults: Sendable, Equatable {
        var allowDuplicateEmails: Bool
        var improvedEmailPrivacy: Bool
    }

    static let allowDuplicateEmailsPath = "signIn.allowDuplicateEmails"
    static let improvedEmailPrivacyPath = "emailPrivacyConfig.enableImprovedEmailPrivacy"
    /// Every field that can be set, as a path to a leaf.
    static let servedPaths = [allowDuplicateEmailsPath, improvedEmailPrivacyPath]
    /// Output-only fields a client may send back from a read-modify-write; ignored.
    static let outputOnly: Set = ["name"]

    static func plan(body: JSONObject, mask: [String]?, defaults: Defaults) throws(AuthError) -> ProjectConfigPatch {
        if let name = body["name"], !name.isNull, name.stringValue == nil {
            throw AuthError(.invalidConfig, "name must be a string")
        }
        let implied = mask?.isEmpty ?? true
        let paths = implied ? leafPaths(.object(body), prefix: "") : mask!
        var patch = ProjectConfigPatch()
        for path in paths where !outputOnly.contains(path) {
            let covered = servedPaths.filter { $0 == path || $0.hasPrefix(path + ".") }
            guard isServed(path) else { throw unsupported(path) }
            // An empty message of ours in a mask-less body (`"signIn": {}`) sets nothing.
            if implied, !servedPaths.contains(path), value(at: path, in: body)?.objectValue?.isEmpty == true { continue }
            if let given = value(at: path, in: body) {
                if !servedPaths.contains(path), given.objectValue == nil {
                    throw AuthError(.invalidConfig, "\(String(path.prefix(100))) must be an object")
                }
                for leaf in leafPaths(given, prefix: path) where !isServed(leaf) { throw unsupported(leaf) }
            }
            for leaf in covered {
                let value = try flag(at: leaf, in: body)
                switch leaf {
                case allowDuplicateEmailsPath: patch.allowDuplicateEmails = value ?? defaults.allowDuplicateEmails
                default: patch.improvedEmailPrivacy = value ?? defaults.improvedEmailPrivacy
                }
            }
        }
        return patch
    }

    /// The paths of every non-null leaf under `value`; an empty object is a leaf (in Google's config an empty
    /// message can mean something, such as `smsRegionConfig.allowByDefault: {}`).
    static func leafPaths(_ value: JSONValue, prefix: String) -> [String] {
        guard case .object(let object) = value, !object.isEmpty || prefix.isEmpty else {
            return value.isNull || prefix.isEmpty ? [] : [prefix]
        }
        return object.keys.sorted().flatMap { key in
            leafPaths(object[key]!, prefix: prefix.isEmpty ? key : prefix + "." + key)
        }
    }

    /// A served field, or a message holding one.
    static func isServed(_ path: String) -> Bool {
        servedPaths.contains { $0 == path || $0.hasPrefix(path + ".") }
    }

    static func value(at path: String, in body: JSONObject) -> JSONValue? {
        var current: JSONValue = .object(body)
        for key in path.split(separator: ".") {
            guard case .object(let object) = current, let next = object[String(key)], !next.isNull else { return nil }
            current = next
        }
        return current
    }

    private static func flag(at path: String, in body: JSONObject) throws(AuthError) -> Bool? {
        guard let value = value(at: path, in: body) else { return nil }
        guard let flag = value.boolValue else { throw AuthError(.invalidConfig, "\(path) must be true or false") }
        return flag
    }

    private static func unsupported(_ path: String) -> AuthError {
        AuthError(.invalidConfig, "\(String(path.prefix(100))) cannot be set on this gateway (the project config serves "
                  + servedPaths.joined(separator: " and ") + "; other settings live in the config file)")
    }
}
