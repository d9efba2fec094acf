/// `application/x-www-form-urlencoded` bodies, as OAuth token and revoke endpoints expect them.
public enum FormURLEncoding {
    /// Encodes pairs as `name=value&…`. Letters, digits and `-._~` stay as they are, a space becomes `+`, and
    /// every other UTF-8 byte becomes `%XX` (upper-case hex), so the output is plain ASCII that any form parser
    /// decodes back to the same pairs.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// One name or value escaped as `encode` escapes it.
    public static func encodeComponent(_ text: String) -> String { escape(text) }

    /// Decodes `name=value&…`. `+` becomes a space, `%XX` becomes the byte XX, and an invalid escape (a `%` not
    /// followed by two hex digits) is kept literally rather than rejected, matching browsers. Empty segments are
    /// skipped; a segment without `=` is a name with an empty value. Bytes that are not valid UTF-8 are replaced
    /// with U+FFFD.
    public static func decode(_ text: String) -> [(String, String)] {
        var pairs: [(String, String)] = []
        forEachSegment(of: text) { name, value in
            pairs.append((unescape(name), unescape(value)))
            return true
        }
        return pairs
    }

    /// Calls `body` with the raw `name` and `value` bytes of each non-empty `&`-separated segment, split at its
    /// first `=`, until `body` returns false. Works on bytes in place: `&`, `=` and `%XX` are ASCII, and
    /// Character-level splitting (then an array of every segment) cost ~2% of a request whose only query is
    /// `?key=...`.
    private static func forEachSegment(
        of text: String, _ body: (_ name: Substring.UTF8View, _ value: Substring.UTF8View) -> Bool
    ) {
        let bytes = text.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            if start < end {
                let segment = bytes[start..<end]
                let keepGoing: Bool
                if let equals = segment.firstIndex(of: UInt8(ascii: "=")) {
                    keepGoing = body(segment[..<equals], segment[bytes.index(after: equals)...])
                } else {
                    keepGoing = body(segment, Substring().utf8)
                }
                guard keepGoing else { return }
            }
            guard end < bytes.endIndex else { return }
            start = bytes.index(after: end)
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func escape(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: " "):
                out.append(UInt8(ascii: "+"))
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func unescape(_ bytes: Substring.UTF8View) -> String {
        // Most names and values (an API key, a grant type) have nothing to decode: read them in place.
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(Substring(bytes))
        }
        return String(decoding: PercentEncoding.decode(bytes, plusIsSpace: true), as: UTF8.self)
    }

    /// The value of the first `name` in a query string (`key` in `?key=...`), decoded like a form field.
    public static func value(named name: String, in query: String?) -> String? {
        guard let query else { return nil }
        var found: String?
        forEachSegment(of: query) { segmentName, value in
            guard unescape(segmentName) == name else { return true }
            found = unescape(value)
            return false
        }
        return found
    }
}

/// Percent-decoding, shared by form bodies, query strings and URL path segments.
public enum PercentEncoding {
    /// Decodes `%XX` escapes to bytes; an invalid escape (a `%` not followed by two hex digits) is kept
    /// literally, as browsers do. With `plusIsSpace` (form bodies and queries) `+` becomes a space.
    public static func decode<Bytes: Collection<UInt8>>(_ text: Bytes, plusIsSpace: Bool) -> [UInt8] {
        let bytes = Array(text)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if plusIsSpace && byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                      let high = Hex.value(of: bytes[index + 1]), let low = Hex.value(of: bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return out
    }
}
