import AuthCore
import Glibc
import WireFormats

/// A decoded request body with tolerant, typed field access.
///
/// Tolerance matches what Firebase clients send: snake_case keys (`refresh_token`) are read as camelCase,
/// `photoURL` as `photoUrl`, numbers are accepted for string fields (firebase-admin sends `validSince` as a
/// number), and JSON `null` means "not given". A field of the wrong kind (an object where a string belongs)
/// is an INVALID_ARGUMENT error naming the field, never a crash.
struct RequestBody: Sendable {
    let object: JSONObject
    /// JSON bodies carry what gets stored (profiles, emails), so their strings may not hold NUL (see
    /// `storable`); form bodies (the token endpoint, the action page's forms) carry only codes, tokens and
    /// passwords that are hashed or compared, and pages that must answer in HTML.
    private let refusesNUL: Bool

    init(object: JSONObject, refusesNUL: Bool = true, normalizingKeys: Bool = true) {
        self.object = normalizingKeys ? RequestBody.normalizingKeys(object) : object
        self.refusesNUL = refusesNUL
    }

    static let empty = RequestBody(object: JSONObject())

    /// Parses a JSON body (an empty body is `{}`).
    static func json(_ bytes: [UInt8]) throws(WireError) -> RequestBody {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .empty }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            throw .invalidPayload(error.description, reason: "parseError")
        }
        guard case .object(let object) = value else {
            throw .invalidPayload("Root element must be a message.", reason: "invalid")
        }
        return RequestBody(object: object)
    }

    /// Parses an `application/x-www-form-urlencoded` body (the Secure Token endpoint accepts it), with the
    /// same limit on fields as a JSON object has on members.
    static func form(_ bytes: [UInt8]) throws(WireError) -> RequestBody {
        let pairs = FormURLEncoding.decode(String(decoding: bytes, as: UTF8.self))
        guard pairs.count <= JSONParser.defaultMaxMembers else {
            throw .invalidPayload("Too many fields in form body", reason: "parseError")
        }
        return RequestBody(object: JSONObject(pairs.map { ($0.0, JSONValue.string($0.1)) }), refusesNUL: false)
    }

    func has(_ key: String) -> Bool { object[key].map { !$0.isNull } ?? false }

    /// Whether the key is present at all, even as `null` (JSON null in `accounts:update` means "delete").
    func isExplicitNull(_ key: String) -> Bool { object[key]?.isNull ?? false }

    func string(_ key: String) throws(WireError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let s)?: return try storable(s, key)
        case .int(let i)?: return String(i)
        case .double(let d)?: return d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case let other?: throw mismatch(key, "TYPE_STRING", other)
        }
    }

    func bool(_ key: String) throws(WireError) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case .string("true")?: return true
        case .string("false")?: return false
        case let other?: throw mismatch(key, "TYPE_BOOL", other)
        }
    }

    func int64(_ key: String) throws(WireError) -> Int64? {
        switch object[key] {
        case nil, .null?: return nil
        case .int(let i)?: return i
        case .double(let d)? where d.rounded() == d && abs(d) < 9e18: return Int64(d)
        case .string(let s)?:
            if let i = Int64(s) { return i }
            throw mismatch(key, "TYPE_INT64", .string(s))
        case let other?: throw mismatch(key, "TYPE_INT64", other)
        }
    }

    /// A repeated string field; a single value is accepted as a one-element list (numbers read as their text,
    /// as for plain string fields).
    func strings(_ key: String) throws(WireError) -> [String]? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let s)?: return [try storable(s, key)]
        case .int(let i)?: return [String(i)]
        case .array(let items)?:
            var result: [String] = []
            for item in items {
                switch item {
                case .string(let s): result.append(try storable(s, key))
                case .int(let i): result.append(String(i))
                default: throw mismatch(key, "TYPE_STRING", item)
                }
            }
            return result
        case let other?: throw mismatch(key, "TYPE_STRING", other)
        }
    }

    /// An enum field (`WireEnums`): its name as sent, or its proto number read as the name with that number.
    /// A number with no name is INVALID_ARGUMENT, as Google answers; an unknown name is returned for the caller
    /// to judge (each endpoint has its own answer for values it does not serve).
    func enumName(_ key: String, _ names: [String]) throws(WireError) -> String? {
        switch object[key] {
        case .int(let number)?: return try Self.name(number, names, key)
        case .double(let number)? where number.rounded() == number && abs(number) < 1e9:
            return try Self.name(Int64(number), names, key)
        default: return try string(key)
        }
    }

    /// A repeated enum field, each element a name or a number (`enumName`).
    func enumNames(_ key: String, _ names: [String]) throws(WireError) -> [String]? {
        guard case .array(let items)? = object[key] else { return try enumName(key, names).map { [$0] } }
        var result: [String] = []
        for item in items {
            switch item {
            case .int(let number): result.append(try Self.name(number, names, key))
            case .string(let name): result.append(try storable(name, key))
            default: throw mismatch(key, "TYPE_ENUM", item)
            }
        }
        return result
    }

    private static func name(_ number: Int64, _ names: [String], _ key: String) throws(WireError) -> String {
        guard number >= 0, number < Int64(names.count) else {
            throw .invalidPayload("Invalid value at '\(snakeCase(key))' (TYPE_ENUM), \(number)", reason: "invalid")
        }
        return names[Int(number)]
    }

    func objects(_ key: String) throws(WireError) -> [JSONObject]? {
        switch object[key] {
        case nil, .null?: return nil
        case .object(let o)?: return [o]
        case .array(let items)?:
            var result: [JSONObject] = []
            for item in items {
                guard case .object(let o) = item else { throw mismatch(key, "TYPE_MESSAGE", item) }
                result.append(o)
            }
            return result
        case let other?: throw mismatch(key, "TYPE_MESSAGE", other)
        }
    }

    /// A NUL character is valid JSON but no text a client means, and PostgreSQL cannot store it: refused
    /// here as a 400, the same on every backend, rather than as a failed write.
    private func storable(_ text: String, _ key: String) throws(WireError) -> String {
        guard refusesNUL, Self.containsNUL(text) else { return text }
        throw .invalidPayload("Invalid value at '\(RequestBody.snakeCase(key))' (TYPE_STRING), contains a NUL character",
                              reason: "invalid")
    }

    /// Whether `text` holds a NUL byte. Every string field of every request passes here (an ID token is ~900
    /// bytes), and `utf8.contains` walks the view a byte at a time: 2.6% of an accounts:lookup's CPU.
    static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
    }

    private func mismatch(_ key: String, _ type: String, _ value: JSONValue) -> WireError {
        let shown = String(JSONSerializer.string(value).prefix(64))
        return .invalidPayload("Invalid value at '\(RequestBody.snakeCase(key))' (\(type)), \(shown)", reason: "invalid")
    }

    /// Google reports field names in snake_case.
    static func snakeCase(_ key: String) -> String {
        var out = ""
        for ch in key {
            if ch.isUppercase { out += "_" + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }

    /// Converts top-level snake_case keys to camelCase and maps known aliases. Keys without an underscore are
    /// kept verbatim (a general camel-caser would mangle names like `iOSBundleId`). Linear in the number of
    /// keys: each costs one look-up in the result.
    static func normalizingKeys(_ object: JSONObject) -> JSONObject {
        var result = JSONObject()
        for (key, value) in object {
            var name = key
            if name.utf8.contains(UInt8(ascii: "_")) {
                let parts = name.split(separator: "_", omittingEmptySubsequences: true)
                name = parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
            }
            if name == "photoURL" { name = "photoUrl" }
            // An explicit camelCase key wins over its snake_case spelling.
            if result[name] == nil || name == key { result[name] = value }
        }
        return result
    }
}
