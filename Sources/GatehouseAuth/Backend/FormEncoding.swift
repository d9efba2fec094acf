import Foundation

/// `application/x-www-form-urlencoded`, as `signInWithIdp`'s `postBody` and the token endpoint take it: every
/// byte but the unreserved ones percent-encoded, so `+`, `&` and `=` inside values (Mini App data) survive.
enum FormEncoding {
    private static let hexDigits = Array("0123456789ABCDEF")

    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0x0f)])
            }
        }
        return out
    }
}
