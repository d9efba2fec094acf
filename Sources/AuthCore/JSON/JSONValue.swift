/// A JSON document with object keys kept in insertion order.
///
/// Why our own type: requests arrive from the network, so parsing must be total (never trap, bounded depth),
/// must tell integers from doubles and booleans (Firebase sends `validSince` as a number or a string), and
/// responses must serialise with a stable key order (Google's error envelope is `code, message, errors, status`).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e18: return Int64(d)
        default: return nil
        }
    }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var isNull: Bool { self == .null }

    /// Member lookup on objects; `nil` for other kinds.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}

/// An ordered JSON object. Lookups are linear, which is faster than hashing for the handful of keys a
/// Firebase request or token has.
public struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var members: [(key: String, value: JSONValue)]

    public init() { members = [] }
    public init(_ members: [(String, JSONValue)]) { self.members = members.map { (key: $0.0, value: $0.1) } }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key: key, value: newValue))
            }
        }
    }

    public var keys: [String] { members.map(\.key) }
    public var isEmpty: Bool { members.isEmpty }
    public var count: Int { members.count }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// `.string(value)` or `.null`-free optional helper for building responses: nil drops nothing by itself;
    /// use `JSONObject.set(_:_:)` to omit absent values.
    public static func optionalString(_ value: String?) -> JSONValue? { value.map(JSONValue.string) }
}

extension JSONObject {
    /// Sets `key` only when `value` is non-nil, so absent fields are omitted rather than sent as `null`
    /// (Firebase clients test for the presence of keys such as `needConfirmation`).
    public mutating func set(_ key: String, _ value: JSONValue?) {
        if let value { self[key] = value }
    }
    public mutating func set(_ key: String, _ value: String?) { set(key, value.map(JSONValue.string)) }
    public mutating func set(_ key: String, _ value: Bool?) { set(key, value.map(JSONValue.bool)) }
    public mutating func set(_ key: String, _ value: Int64?) { set(key, value.map(JSONValue.int)) }
}
