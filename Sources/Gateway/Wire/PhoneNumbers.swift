import AuthCore

/// Phone numbers as Firebase stores them: E.164, a `+` and 2 to 15 digits, the first not 0. Admin requests set
/// them (`accounts`, `accounts:update`); anything else is `INVALID_PHONE_NUMBER : Invalid format.`, as Firebase
/// answers, so a number stored here is one every client SDK can send back for a lookup.
enum PhoneNumbers {
    static func require(_ text: String) throws(AuthError) -> String {
        let digits = text.utf8.dropFirst()
        guard text.utf8.first == UInt8(ascii: "+"), (2...15).contains(digits.count),
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              digits.first != UInt8(ascii: "0")
        else { throw AuthError(.invalidPhoneNumber, "Invalid format.") }
        return text
    }
}
