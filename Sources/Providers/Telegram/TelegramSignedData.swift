import WireFormats

/// Login Widget data or Mini App `initData`: a query string whose fields Telegram signed as a data-check-string.
///
/// The values are decoded once, to bytes, and never re-encoded or re-serialised: the check is over exactly what
/// Telegram signed, so a `user` JSON keeps its `\/` escapes and key order, and a field this code has never heard of
/// is signed like any other (building the string from a fixed field list breaks when Telegram adds one).
struct TelegramSignedData: Sendable {
    /// How `+` is read. Both forms decode `%XX`.
    enum Decoding {
        /// `application/x-www-form-urlencoded`, where `+` is a space: what the widget's redirect (a GET query) and
        /// `URLSearchParams` produce.
        case form
        /// Percent-decoding only, where `+` is a plus sign: Telegram's clients percent-encode initData (a space is
        /// `%20`, a plus `%2B`), and some leave `+` literal; reading it as a space breaks users with `+` in
        /// their names (Telegram-Mini-Apps/init-data-golang#11).
        case percentOnly
    }

    /// Longer data is refused before any HMAC: real payloads are well under 2 KiB.
    static let maxBytes = 16 * 1024

    /// Every received field except `hash`, in received order (`name`, decoded value bytes).
    let fields: [(name: String, value: [UInt8])]
    /// The decoded `hash` (32 bytes of HMAC-SHA256, hex on the wire).
    let hash: [UInt8]

    /// Splits and decodes `text`. Refuses empty, oversized, or ambiguous data (a field twice: which value did
    /// Telegram sign?), and data without a 64-hex-digit `hash`.
    init(parsing text: String, decoding: Decoding) throws(TelegramFailure) {
        guard !text.isEmpty else { throw .malformed("is empty") }
        guard text.utf8.count <= Self.maxBytes else { throw .malformed("is too long") }
        var fields: [(name: String, value: [UInt8])] = []
        var names: Set<String> = []
        var hashText: [UInt8]?
        for segment in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = segment.firstIndex(of: UInt8(ascii: "="))
            let rawName = equals.map { segment[..<$0] } ?? segment[...]
            let rawValue = equals.map { segment[segment.index(after: $0)...] } ?? segment[segment.endIndex...]
            let name = String(decoding: PercentEncoding.decode(rawName, plusIsSpace: decoding == .form), as: UTF8.self)
            let value = PercentEncoding.decode(rawValue, plusIsSpace: decoding == .form)
            guard !name.isEmpty else { throw .malformed("has a field without a name") }
            guard names.insert(name).inserted else { throw .malformed("has the field \(name.prefix(32)) twice") }
            if name == "hash" { hashText = value } else { fields.append((name, value)) }
        }
        guard let hashText else { throw .missingHash }
        guard hashText.count == 64, let hash = Hex.decode(String(decoding: hashText, as: UTF8.self)), hash.count == 32 else {
            throw .malformed("has a hash that is not 64 hex digits")
        }
        self.fields = fields
        self.hash = hash
    }

    /// The value of `name` as bytes, exactly as decoded.
    func bytes(_ name: String) -> [UInt8]? { fields.first { $0.name == name }?.value }

    /// The value of `name` as text (invalid UTF-8 becomes U+FFFD; only for reading, never for checking).
    func text(_ name: String) -> String? { bytes(name).map { String(decoding: $0, as: UTF8.self) } }

    /// The data-check-string: `name=value` for every field except `excluded` (and `hash`, which is never in
    /// `fields`), sorted by name in byte order, joined with `\n`.
    func dataCheckString(excluding excluded: Set<String> = []) -> [UInt8] {
        let lines = fields.filter { !excluded.contains($0.name) }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            .map { Array($0.name.utf8) + [UInt8(ascii: "=")] + $0.value }
        return Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }

    /// `auth_date` in seconds since the epoch: plain decimal digits, nothing else.
    func authDate() throws(TelegramFailure) -> Int64 {
        guard let text = text("auth_date"), !text.isEmpty, text.utf8.count <= 12,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let seconds = Int64(text)
        else { throw .missingAuthDate }
        return seconds
    }
}
