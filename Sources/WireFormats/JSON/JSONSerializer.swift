/// Serialises `JSONValue` compactly (or with two-space indentation) and deterministically.
public enum JSONSerializer {
    public static func bytes(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)  // an account's JSON fits without growing (256 grew twice for a lookup)
        write(value, into: &out, pretty: pretty, indent: 0)
        return out
    }

    public static func string(_ value: JSONValue, pretty: Bool = false) -> String {
        String(decoding: bytes(value, pretty: pretty), as: UTF8.self)
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): appendInteger(i, to: &out)
        case .double(let d):
            if d.isFinite, d.rounded() == d, abs(d) < 1e15 {
                appendInteger(Int64(d), to: &out)
            } else if d.isFinite {
                out.append(contentsOf: "\(d)".utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out.append(contentsOf: [0x5B, 0x5D]); return }
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C) }
                newline(&out, pretty: pretty, indent: indent + 1)
                write(item, into: &out, pretty: pretty, indent: indent + 1)
            }
            newline(&out, pretty: pretty, indent: indent)
            out.append(0x5D)
        case .object(let object):
            if object.isEmpty { out.append(contentsOf: [0x7B, 0x7D]); return }
            out.append(0x7B)
            for (i, member) in object.members.enumerated() {
                if i > 0 { out.append(0x2C) }
                newline(&out, pretty: pretty, indent: indent + 1)
                writeString(member.key, into: &out)
                out.append(0x3A)
                if pretty { out.append(0x20) }
                write(member.value, into: &out, pretty: pretty, indent: indent + 1)
            }
            newline(&out, pretty: pretty, indent: indent)
            out.append(0x7D)
        }
    }

    private static func newline(_ out: inout [UInt8], pretty: Bool, indent: Int) {
        guard pretty else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: indent * 2))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        appendString(s, to: &out)
    }

    /// Appends `s` as a JSON string literal (quotes included). Text with nothing to escape, nearly all of it, is
    /// copied in one piece.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        let copied = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard JSONStringBytes.firstSpecial(in: bytes, from: 0) == bytes.count else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied != true {
            for byte in s.utf8 {
                switch byte {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                case 0x00..<0x20:
                    out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                default: out.append(byte)
                }
            }
        }
        out.append(0x22)
    }

    /// Appends the decimal digits of `value` without building a String.
    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(0x2D) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }
}
