/// Finds the bytes a JSON string cannot hold as they are: `"`, `\` and the control characters below 0x20.
///
/// Eight bytes at a time (SWAR): ID tokens are about a kilobyte of plain base64url, read in every authenticated
/// request body and written in every token response, and a byte-by-byte scan of them was a visible share of a
/// lookup. A word is tested with the exact "has a zero byte" and "has a byte below n" bit tricks; the byte loop
/// then finds the position.
enum JSONStringBytes {
    /// The index of the first quote, backslash or control byte in `bytes` at or after `start`, or `bytes.count`.
    static func firstSpecial(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        let count = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= count {
                if hasSpecialByte(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { break }
                index += 8
            }
        }
        while index < count {
            if isSpecial(bytes[index]) { return index }
            index += 1
        }
        return count
    }

    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any of the eight bytes of `word` is special.
    static func hasSpecialByte(_ word: UInt64) -> Bool {
        hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
            || (word &- ones &* 0x20) & ~word & highBits != 0  // a byte below 0x20
    }

    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- ones) & ~word & highBits != 0
    }
}
