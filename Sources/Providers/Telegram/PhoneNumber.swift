/// Phone numbers as Telegram's OpenID Connect `phone_number` claim gives them (digits with the country code,
/// without the `+`: `971577777777`), normalised to E.164 (`+971577777777`).
enum PhoneNumber {
    /// `+` and 8-15 digits, the first not 0 (E.164 numbers start with a country code, and 15 digits is their
    /// maximum). Spaces, dashes, dots and parentheses are dropped; a leading `+` or `00` is read as the
    /// international prefix. nil for anything else, so a malformed claim is never stored as a phone number.
    static func e164(_ text: String) -> String? {
        var digits = Substring(text.filter { !" -.()".contains($0) })
        if digits.hasPrefix("+") {
            digits = digits.dropFirst()
        } else if digits.hasPrefix("00") {
            digits = digits.dropFirst(2)
        }
        guard (8...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0" else {
            return nil
        }
        return "+" + digits
    }
}
