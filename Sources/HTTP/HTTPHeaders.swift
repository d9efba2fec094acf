/// An ordered list of header fields, kept exactly as received or added.
///
/// Order matters on the wire (and for duplicated fields such as `Set-Cookie`), so the pairs are stored
/// as a list rather than a dictionary. Lookup by name is ASCII case-insensitive, as HTTP field names are.
public struct HTTPHeaders: Sendable, Sequence, Equatable, ExpressibleByDictionaryLiteral {
    public typealias Element = (name: String, value: String)

    private var pairs: [Element]

    /// Creates headers from `(name, value)` pairs, keeping their order.
    public init(_ pairs: [(String, String)] = []) {
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value for `name`, or nil when the field is absent.
    public subscript(name: String) -> String? {
        pairs.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value for `name`, in the order they appeared.
    public func values(_ name: String) -> [String] {
        var found: [String] = []  // stays unallocated when the field is absent, the common case
        for pair in pairs where Self.namesMatch(pair.name, name) { found.append(pair.value) }
        return found
    }

    /// Whether at least one field called `name` is present.
    public func contains(_ name: String) -> Bool {
        pairs.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any existing fields with the same name.
    public mutating func add(_ name: String, _ value: String) {
        pairs.append((name: name, value: value))
    }

    /// Makes room for `count` fields, so that filling a parsed head allocates once.
    public mutating func reserveCapacity(_ count: Int) {
        pairs.reserveCapacity(count)
    }

    /// Replaces every field called `name` with a single one holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        pairs.append((name: name, value: value))
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        pairs.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The number of fields, counting duplicates.
    public var count: Int { pairs.count }

    public var isEmpty: Bool { pairs.isEmpty }

    public func makeIterator() -> IndexingIterator<[Element]> {
        pairs.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.pairs.count == rhs.pairs.count
            && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison; field names are ASCII tokens, so no Unicode folding is needed.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8, right = rhs.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { ByteClass.lowercased($0) == ByteClass.lowercased($1) }
    }
}
