
/// Email addresses as Firebase treats them: lower-cased before they are stored or compared, and valid when
/// they have one `@` with something on both sides (the emulator's `^[^@]+@[^@]+$`), no white space and at
/// most 254 bytes (the SMTP path limit, so every stored address can actually receive mail).
public enum EmailAddress {
    public static let maxLength = 254

    /// The canonical form of `text`, or nil when it is not an address.
    public static func canonical(_ text: String) -> String? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, text.utf8.count <= maxLength else { return nil }
        // ASCII (nearly every address) is checked byte by byte; other text by its scalars' Unicode properties.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            guard text.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return nil }
        } else if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0 == "\u{7F}" }) {
            return nil
        }
        return text.lowercased()
    }

    /// The canonical form of a required `email` field: `MISSING_EMAIL` when absent, `INVALID_EMAIL` when
    /// malformed (an empty string is malformed, not missing, as in Firebase).
    public static func require(_ text: String?) throws(AuthError) -> String {
        guard let text else { throw AuthError(.missingEmail) }
        guard let canonical = canonical(text) else { throw AuthError(.invalidEmail) }
        return canonical
    }
}
