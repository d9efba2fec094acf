import TestSupport
import Testing
import WireFormats

/// Counts what a map does to its keys, so the cost of member look-up is measured in operations, not time.
final class KeyOperationCounter {
    var equalityChecks = 0
    var hashes = 0
    var total: Int { equalityChecks + hashes }
}

/// A key that reports every comparison and every hash to its counter.
struct CountingKey: Hashable {
    let name: Int
    let counter: KeyOperationCounter

    static func == (lhs: CountingKey, rhs: CountingKey) -> Bool {
        lhs.counter.equalityChecks += 1
        return lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        counter.hashes += 1
        hasher.combine(name)
    }
}

@Suite("JSON objects: linear cost whatever the number of members, a cap per object, order kept")
struct JSONObjectScalingTests {
    /// What parsing and key normalisation do with a body of `n` keys: insert each, insert each again (a
    /// duplicate key), look each up, and look up as many absent keys. Returns the key operations it took.
    static func operations(forKeys n: Int) -> Int {
        let counter = KeyOperationCounter()
        var map = OrderedMap<CountingKey, Int>()
        for i in 0..<n { map[CountingKey(name: i, counter: counter)] = i }
        for i in 0..<n { map[CountingKey(name: i, counter: counter)] = -i }
        for i in 0..<n { _ = map[CountingKey(name: i, counter: counter)] }
        for i in n..<(2 * n) { _ = map[CountingKey(name: i, counter: counter)] }
        #expect(map.count == n && map[CountingKey(name: n - 1, counter: counter)] == -(n - 1))
        return counter.total
    }

    @Test("eight times the keys costs about eight times the key operations, not sixty-four")
    func linearGrowth() {
        let small = Self.operations(forKeys: 500)
        let large = Self.operations(forKeys: 4000)
        let ratio = Double(large) / Double(small)
        // Linear work gives a ratio near 8 (7.7 to 8.7 seen: equality checks vary with the hash seed); a scan per
        // insert gives 64.
        #expect(ratio < 12, "key operations: \(small) for 500 keys, \(large) for 4000 (ratio \(ratio))")
        // And a small constant per map operation (4 per key): hashing, growth, and a few comparisons each, which
        // vary with the per-process hash seed; a scan per insert would need thousands per operation here.
        #expect(large < 4000 * 4 * 8, "key operations: \(large) for 4000 keys")
    }

    #if DEBUG
    /// The key operations `work` does, counted through every `OrderedMap` and `JSONObject` it touches.
    static func counted(_ work: () throws -> Void) rethrows -> Int {
        let count = KeyOperationCount()
        try KeyOperationCount.$current.withValue(count) { try work() }
        return count.total
    }

    @Test("the parser: eight times the members of an object costs about eight times the key operations")
    func parserGrowth() throws {
        // Distinct keys, then each key again (duplicates take the last value), as `operations(forKeys:)` does.
        func text(_ n: Int) -> String {
            let members = (0..<n).map { "\"k\($0)\":\($0)" } + (0..<n).map { "\"k\($0)\":\"again\"" }
            return "{" + members.joined(separator: ",") + "}"
        }
        let small = try Self.counted { _ = try JSONParser.parse(text(60), maxMembers: 1000) }
        let large = try Self.counted { _ = try JSONParser.parse(text(480), maxMembers: 1000) }
        let ratio = Double(large) / Double(small)
        // Linear: a few operations per member, so a ratio near 8; a scan of the object per member gives 64.
        #expect(ratio < 12, "key operations: \(small) for 60 keys, \(large) for 480 (ratio \(ratio))")
        #expect(large < 960 * 4, "key operations: \(large) for 960 members")
    }
    #endif

    @Test("order is insertion order past the index threshold; replacing keeps the place; removal re-indexes")
    func orderAndRemoval() {
        var map = OrderedMap<String, Int>()
        var model: [(String, Int)] = []
        var rng = SplitMix64(seed: 0x0bde_4ed)
        for step in 0..<3000 {
            let key = "k\(rng.next() % 200)"
            if rng.next() % 5 == 0 {
                map[key] = nil
                model.removeAll { $0.0 == key }
            } else {
                map[key] = step
                if let i = model.firstIndex(where: { $0.0 == key }) { model[i].1 = step } else { model.append((key, step)) }
            }
        }
        #expect(map.keys == model.map(\.0))
        #expect(map.entries.map(\.value) == model.map(\.1))
        for (key, value) in model { #expect(map[key] == value) }
        #expect(map["absent"] == nil)
    }

    @Test("a duplicate key keeps its first position and takes the last value")
    func duplicates() throws {
        let keys = (0..<50).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let value = try JSONParser.parse("{\(keys),\"k3\":\"last\"}")
        #expect(value.objectValue?.count == 50)
        #expect(value.objectValue?.keys.first == "k0" && value["k3"] == "last")
        #expect(JSONObject([("a", 1), ("b", 2), ("a", 3)]).members.map(\.key) == ["a", "b"])
        #expect(JSONObject([("a", 1), ("b", 2), ("a", 3)])["a"] == 3)
    }

    static func object(members: Int, key: (Int) -> String = { "k\($0)" }) -> String {
        "{" + (0..<members).map { "\"\(key($0))\":0" }.joined(separator: ",") + "}"
    }

    @Test("an object may have up to the cap of members; one more is refused at the member that exceeds it")
    func memberCap() throws {
        let cap = JSONParser.defaultMaxMembers
        #expect(cap == 1000)
        #expect(try JSONParser.parse(Self.object(members: cap)).objectValue?.count == cap)
        let over = Self.object(members: cap + 1)
        do {
            _ = try JSONParser.parse(over)
            Issue.record("an object of \(cap + 1) members was accepted")
        } catch {
            #expect(error.message == "Too many members in object" && error.offset == over.utf8.count - 10)
        }
        // Duplicates count too: the cap bounds the work, not only the result.
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Self.object(members: cap + 1) { _ in "same" }) }
        #expect(try JSONParser.parse(Self.object(members: 20), maxMembers: 20) != .null)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Self.object(members: 21), maxMembers: 20) }
    }

    @Test("the cap is per object: an array of many small objects, or many capped objects, parses")
    func capIsPerObject() throws {
        let users = "[" + Array(repeating: #"{"localId":"u","email":"a@b.c","disabled":false}"#, count: 5000)
            .joined(separator: ",") + "]"
        #expect(try JSONParser.parse(users).arrayValue?.count == 5000)
        let nested = "{" + (0..<3).map { "\"o\($0)\":\(Self.object(members: 1000))" }.joined(separator: ",") + "}"
        #expect(try JSONParser.parse(nested)["o2"]?.objectValue?.count == 1000)
    }
}
