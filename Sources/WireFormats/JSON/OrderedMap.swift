/// Key-value pairs kept in insertion order, with look-up in constant time whatever the size.
///
/// Why not a plain array: JSON objects arrive from the network, and an array searched on every insert makes
/// a body of n keys cost n² comparisons (40 000 keys took seconds of CPU). Why not a plain dictionary: responses
/// must keep their key order (Google's error envelope is `code, message, errors, status`).
///
/// Small maps, the common case (a Firebase request has a dozen keys), are scanned: that is cheapest and
/// allocates nothing more. Past `indexThreshold` entries a hash index from key to position is built once and
/// then kept up to date, so an insert or look-up costs one hash probe. Swift's `Hasher` is seeded per
/// process, so a client cannot choose keys that collide.
public struct OrderedMap<Key: Hashable, Value> {
    /// The entries in the order their keys were first inserted.
    public private(set) var entries: [(key: Key, value: Value)] = []
    /// Position of each key in `entries`; nil while the map is small enough to scan.
    private var positions: [Key: Int]?

    /// The size up to which a scan beats hashing (and saves building the index for small objects).
    static var indexThreshold: Int { 8 }

    public init() {}

    /// A map of `pairs`; a key given twice keeps its first position and its last value, as in JSON objects.
    public init(_ pairs: some Sequence<(Key, Value)>) {
        entries.reserveCapacity(pairs.underestimatedCount)
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [Key] { entries.map(\.key) }

    /// The position of `key` in `entries`.
    public func index(of key: Key) -> Int? {
        if let positions {
            Self.counted(1)
            return positions[key]
        }
        let index = entries.firstIndex { $0.key == key }
        Self.counted(index.map { $0 + 1 } ?? entries.count)
        return index
    }

    /// Reads, replaces (keeping the position), appends, or with `nil` removes the entry for `key`.
    public subscript(key: Key) -> Value? {
        get { index(of: key).map { entries[$0].value } }
        set {
            guard let newValue else { removeValue(forKey: key); return }
            if let index = index(of: key) {
                entries[index].value = newValue
                return
            }
            if positions != nil { positions?[key] = entries.count }
            // Room for a small object at the first insert: growing 1, 2, 4, 8 was four allocations per response.
            if entries.capacity == 0 { entries.reserveCapacity(Self.indexThreshold) }
            entries.append((key: key, value: newValue))
            if positions == nil && entries.count > Self.indexThreshold { buildIndex() }
        }
    }

    /// Removes the entry for `key`. Costs O(n): later entries move up one place. Nothing removes keys in a loop
    /// over request data; requests are only read, and removal is for building small responses.
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let index = index(of: key) else { return nil }
        let removed = entries.remove(at: index).value
        if positions != nil {
            positions?[key] = nil
            for position in index..<entries.count { positions?[entries[position].key] = position }
            Self.counted(entries.count - index)
        }
        return removed
    }

    /// Reports key operations to `KeyOperationCount` in debug builds; nothing in release builds.
    @inline(__always)
    static func counted(_ operations: Int) {
        #if DEBUG
        KeyOperationCount.add(operations)
        #endif
    }

    private mutating func buildIndex() {
        var built: [Key: Int] = [:]
        built.reserveCapacity(entries.count * 2)
        for (position, entry) in entries.enumerated() { built[entry.key] = position }
        Self.counted(entries.count)
        positions = built
    }
}

extension OrderedMap: Sequence {
    public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> { entries.makeIterator() }
}

extension OrderedMap: Sendable where Key: Sendable, Value: Sendable {}

extension OrderedMap: Equatable where Value: Equatable {
    /// Equal when the same keys hold equal values in the same order.
    public static func == (lhs: OrderedMap, rhs: OrderedMap) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
