import WireFormats

/// Reads a `firebase auth:export` JSON file (`{"users": [ … ]}`, plus the gateway's extension members) one
/// top-level member at a time, and the user arrays one user at a time, so a file of a million users is never
/// parsed into one tree: each user is cut out by a byte scan that tracks strings and nesting, then parsed alone.
struct AuthExportJSONReader {
    enum Failure: Error, CustomStringConvertible {
        case malformed(offset: Int, String)

        var description: String {
            switch self {
            case .malformed(let offset, let detail): return "not an auth:export JSON file (byte \(offset)): \(detail)"
            }
        }
    }

    /// What the scan meets, in file order.
    enum Item {
        /// One element of the array member `member` (`users`, `gatehouseUsers`): the bytes of a JSON object, cut
        /// out but not parsed, so callers can parse many users at once on several threads.
        case user(member: String, ArraySlice<UInt8>)
        /// Any other top-level member, parsed whole (the extension's hash configurations).
        case member(String, JSONValue)
    }

    static let userArrays: Set<String> = ["users", "gatehouseUsers"]

    private let bytes: [UInt8]
    private(set) var position = 0
    private var state: State = .start

    private enum State {
        case start
        case betweenMembers
        case inArray(String, expectingFirst: Bool)
        case done
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var byteCount: Int { bytes.count }

    /// The next item, or nil at the end of the file.
    mutating func next() throws -> Item? {
        while true {
            switch state {
            case .done:
                return nil
            case .start:
                skipSpace()
                try expect(UInt8(ascii: "{"))
                skipSpace()
                if peek() == UInt8(ascii: "}") { position += 1; state = .done; continue }
                state = .betweenMembers
                if let item = try member() { return item }
            case .betweenMembers:
                skipSpace()
                guard let byte = peek() else { throw fail("the file ends inside the top-level object") }
                position += 1
                if byte == UInt8(ascii: "}") { state = .done; continue }
                guard byte == UInt8(ascii: ",") else { throw fail("expected , or } between members") }
                if let item = try member() { return item }
            case .inArray(let name, let first):
                skipSpace()
                guard let byte = peek() else { throw fail("the file ends inside \(name)") }
                if byte == UInt8(ascii: "]") {
                    position += 1
                    state = .betweenMembers
                    continue
                }
                if !first {
                    guard byte == UInt8(ascii: ",") else { throw fail("expected , or ] in \(name)") }
                    position += 1
                    skipSpace()
                }
                state = .inArray(name, expectingFirst: false)
                guard peek() == UInt8(ascii: "{") else {
                    throw fail("each entry of \(name) must be an object")
                }
                let start = position
                position = try valueEnd(from: start)
                return .user(member: name, bytes[start..<position])
            }
        }
    }

    /// Reads `"name":` and either enters a user array (returning nil) or returns the member parsed whole.
    private mutating func member() throws -> Item? {
        skipSpace()
        guard case .string(let name) = try parseValue() else { throw fail("expected a member name") }
        skipSpace()
        try expect(UInt8(ascii: ":"))
        skipSpace()
        if Self.userArrays.contains(name) {
            try expect(UInt8(ascii: "["))
            state = .inArray(name, expectingFirst: true)
            return nil
        }
        return .member(name, try parseValue())
    }

    /// Parses the JSON value starting at `position` after finding where it ends.
    private mutating func parseValue() throws -> JSONValue {
        let start = position
        let end = try valueEnd(from: start)
        position = end
        do {
            return try JSONParser.parse(Array(bytes[start..<end]))
        } catch {
            throw Failure.malformed(offset: start, error.description)
        }
    }

    /// The index just past the value that starts at `start`: strings honour escapes, objects and arrays nest.
    private func valueEnd(from start: Int) throws -> Int {
        var index = start
        var depth = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return index }
                depth -= 1
                if depth == 0 { return index + 1 }
            case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                if depth == 0 { return index }
            default:
                break
            }
            index += 1
        }
        if depth == 0 && !inString && index > start { return index }
        throw Failure.malformed(offset: start, "a value is cut off by the end of the file")
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard peek() == byte else { throw fail("expected \(Character(UnicodeScalar(byte)))") }
        position += 1
    }

    private func fail(_ detail: String) -> Failure { .malformed(offset: position, detail) }
}
