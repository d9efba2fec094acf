/// Byte classes from RFC 9110/9112, as lookup tables so the parser never allocates to classify a byte.
enum ByteClass {
    static let carriageReturn: UInt8 = 13
    static let lineFeed: UInt8 = 10
    static let space: UInt8 = 32
    static let tab: UInt8 = 9
    static let colon: UInt8 = 58

    /// `tchar`: the characters allowed in methods and field names.
    static let tokenTable: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    static func isToken(_ byte: UInt8) -> Bool { tokenTable[Int(byte)] }

    /// `field-vchar` plus SP and HTAB; bytes >= 0x80 are `obs-text`, which RFC 9110 still allows in values.
    static func isFieldValue(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= 0x20 && byte != 0x7F)
    }

    /// Visible ASCII, the only bytes a request-target may hold.
    static func isTargetByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// Index of the first "://" in `text`, which ends the scheme of an absolute-form target.
    static func schemeSeparator(in text: String) -> String.Index? {
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            if utf8[index...].starts(with: "://".utf8) { return index }
            index = utf8.index(after: index)
        }
        return nil
    }
}
