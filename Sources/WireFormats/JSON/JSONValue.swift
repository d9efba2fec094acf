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

/// An ordered JSON object: members keep their insertion order for serialisation, and look-up by key costs
/// the same for 10 members as for 10 000 (see `OrderedMap`), so parsing a hostile body stays linear.
public struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    private var map: OrderedMap<String, JSONValue>

    public init() { map = OrderedMap() }
    /// A key given twice keeps its first position and its last value, as when parsing.
    public init(_ members: [(String, JSONValue)]) { map = OrderedMap(members) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    public subscript(key: String) -> JSONValue? {
        get { map[key] }
        set { map[key] = newValue }
    }

    public var members: [(key: String, value: JSONValue)] {
        OrderedMap<String, JSONValue>.counted(map.count)
        return map.entries
    }

    public var keys: [String] {
        OrderedMap<String, JSONValue>.counted(map.count)
        return map.keys
    }

    public var isEmpty: Bool { map.isEmpty }
    public var count: Int { map.count }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        OrderedMap<String, JSONValue>.counted(map.count)
        return map.makeIterator()
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
