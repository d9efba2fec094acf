import TestSupport
import Testing
import WireFormats

@Suite("JSON parser and serializer")
struct JSONTests {
    @Test("parses objects keeping key order, with integers, doubles, booleans and null")
    func parsesDocument() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":[true,false,null,1.5,-2e3],"c":"x\u00e9\n"}"#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["b", "a", "c"])
        #expect(object["b"] == .int(1))
        #expect(object["a"] == .array([.bool(true), .bool(false), .null, .double(1.5), .double(-2000)]))
        #expect(object["c"] == .string("xé\n"))
    }

    @Test("decodes surrogate pairs and rejects lone surrogates")
    func surrogates() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#""\ud83d""#) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#""\ude00""#) }
    }

    @Test("rejects malformed input", arguments: [
        "", "{", "}", "[1,]", "{\"a\":}", "{\"a\" 1}", "01", "1.", "-", "tru", "nul", "\"abc", "\"\\x\"",
        "{\"a\":1}x", "[1 2]", "\"\u{01}\"", "1e", "{1:2}", "NaN", "Infinity",
    ])
    func rejectsMalformed(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test("refuses nesting deeper than the limit instead of exhausting the stack")
    func depthLimit() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let fine = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(try JSONParser.parse(fine, maxDepth: 10) != .null)
    }

    @Test("rejects invalid UTF-8 inside strings")
    func invalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
    }

    @Test("integers beyond Int64 become doubles; numbers overflowing Double are refused")
    func bigNumbers() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .int(Int64.max))
        guard case .double(let big) = try JSONParser.parse("92233720368547758070") else { Issue.record("not a double"); return }
        #expect(big > 9.2e19)
        #expect(throws: JSONParseError.self) { try JSONParser.parse("1e999") }
    }

    @Test("serializes with escapes and round-trips")
    func roundTrip() throws {
        let value: JSONValue = ["s": "q\"\\\n\u{01}é", "n": 42, "d": .double(0.5), "a": [true, nil], "o": [:]]
        let text = JSONSerializer.string(value)
        #expect(text == #"{"s":"q\"\\\n\u0001é","n":42,"d":0.5,"a":[true,null],"o":{}}"#)
        #expect(try JSONParser.parse(text) == value)
        #expect(try JSONParser.parse(JSONSerializer.string(value, pretty: true)) == value)
    }

    @Test("setting nil omits the key, so absent fields are never sent as null")
    func omitsNil() {
        var object = JSONObject()
        object.set("a", nil as String?)
        object.set("b", "x")
        #expect(object.keys == ["b"])
        object["b"] = nil
        #expect(object.isEmpty)
    }

    @Test("a seeded random walk of mutations never traps the parser")
    func mutationsNeverTrap() {
        var rng = SplitMix64(seed: 0x9a7e_4005e)
        let corpus = [#"{"idToken":"abc","returnSecureToken":true,"n":[1,2.5,{"x":null}]}"#, #"["\u0041",-0.1e-2]"#]
        for _ in 0..<20_000 {
            var bytes = Array(corpus[Int(rng.next() % UInt64(corpus.count))].utf8)
            for _ in 0...(rng.next() % 4) {
                let index = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[index] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: index)
                }
                if bytes.isEmpty { break }
            }
            _ = try? JSONParser.parse(bytes)
        }
    }
}
