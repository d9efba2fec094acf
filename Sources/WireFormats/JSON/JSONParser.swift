/// A strict RFC 8259 JSON parser over bytes with a nesting limit and a limit on members per object.
///
/// Total by construction: every malformed input yields `JSONParseError`, never a trap, and nesting deeper
/// than `maxDepth` is refused so that hostile input cannot exhaust the stack. Work is linear in the input:
/// each member costs one look-up in its object (see `OrderedMap`), and an object with more than
/// `maxMembers` members is refused, since no legitimate Firebase message has more than a few dozen fields.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public var description: String { "\(message) at offset \(offset)" }
}

public enum JSONParser {
    /// Far above any Firebase request (admin batches carry up to 1000 users in an *array* of small objects),
    /// far below what a body-sized object of tiny members could hold (a 1 MB body fits 150 000 of them).
    public static let defaultMaxMembers = 1000

    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64,
                             maxMembers: Int = defaultMaxMembers) throws(JSONParseError) -> JSONValue {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth, maxMembers: maxMembers)
        reader.skipWhitespace()
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        guard reader.atEnd else { throw reader.error("Unexpected trailing characters") }
        return value
    }

    public static func parse(_ text: String, maxDepth: Int = 64,
                             maxMembers: Int = defaultMaxMembers) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth, maxMembers: maxMembers)
    }
}

private struct Reader {
    let bytes: [UInt8]
    let maxDepth: Int
    let maxMembers: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int, maxMembers: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.maxMembers = maxMembers
    }

    var atEnd: Bool { index >= bytes.count }

    func error(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: index) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("Unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("Unexpected character")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = literal.withUTF8Buffer { Array($0) }
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("Invalid literal")
        }
        index += expected.count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw error("Nesting too deep") }
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
        var memberCount = 0
        while true {
            skipWhitespace()
            // Counted before parsing, so duplicates count too and a refused body is not read to its end.
            memberCount += 1
            guard memberCount <= maxMembers else { throw error("Too many members in object") }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("Expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("Expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            // Duplicate keys: the last one wins, as in most JSON parsers (and proto3 JSON).
            object[key] = value
            skipWhitespace()
            guard index < bytes.count else { throw error("Unexpected end of object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
            throw error("Expected ',' or '}'")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw error("Nesting too deep") }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
        while true {
            skipWhitespace()
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("Unexpected end of array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
            throw error("Expected ',' or ']'")
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("Invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("Invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("Invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw JSONParseError(message: "Number out of range", offset: start) }
        return .double(value)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        var runStart = index
        var raw: [UInt8] = []
        var sawEscape = false
        while true {
            index = bytes.withUnsafeBufferPointer { JSONStringBytes.firstSpecial(in: $0, from: index) }
            guard index < bytes.count else { throw error("Unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if !sawEscape {
                    // No escapes (tokens, ids, most values): validated straight from the input, no copy.
                    let run = bytes[runStart..<index]
                    index += 1
                    guard let text = String(validating: run, as: UTF8.self) else {
                        throw error("Invalid UTF-8 in string")
                    }
                    return text
                }
                raw.append(contentsOf: bytes[runStart..<index])
                index += 1
                break
            }
            // firstSpecial stops only at a quote (above), a backslash or a control byte.
            guard byte == UInt8(ascii: "\\") else { throw error("Control character in string") }
            sawEscape = true
            raw.append(contentsOf: bytes[runStart..<index])
            index += 1
            try appendEscape(into: &raw)
            runStart = index
        }
        // Validate UTF-8 strictly: invalid sequences are an error, not replacement characters.
        guard let text = String(validating: raw, as: UTF8.self) else { throw error("Invalid UTF-8 in string") }
        return text
    }

    mutating func appendEscape(into raw: inout [UInt8]) throws(JSONParseError) {
        guard index < bytes.count else { throw error("Unterminated escape") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""): raw.append(0x22)
        case UInt8(ascii: "\\"): raw.append(0x5C)
        case UInt8(ascii: "/"): raw.append(0x2F)
        case UInt8(ascii: "b"): raw.append(0x08)
        case UInt8(ascii: "f"): raw.append(0x0C)
        case UInt8(ascii: "n"): raw.append(0x0A)
        case UInt8(ascii: "r"): raw.append(0x0D)
        case UInt8(ascii: "t"): raw.append(0x09)
        case UInt8(ascii: "u"):
            var code = try readHex4()
            if (0xD800...0xDBFF).contains(code) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("Unpaired surrogate")
                }
                index += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("Invalid surrogate pair") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw error("Unpaired surrogate")
            }
            guard let scalar = Unicode.Scalar(code) else { throw error("Invalid code point") }
            raw.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw error("Invalid escape")
        }
    }

    mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("Invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("Invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
