/// Base64url (RFC 4648 §5), the encoding of every JOSE segment and of opaque tokens.
public enum Base64URL {
    /// Encodes without padding, as JWS and JWK require.
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64Codec.encode(bytes, alphabet: Base64Codec.urlAlphabet, padded: false)
    }

    /// Appends the unpadded encoding of `bytes` to `output`.
    public static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        Base64Codec.append(bytes, alphabet: Base64Codec.urlAlphabet, padded: false, to: &output)
    }

    /// Decodes text with or without `=` padding. Returns `nil` for characters outside the url-safe alphabet
    /// (including `+` and `/`), misplaced padding, impossible lengths and non-zero trailing bits.
    public static func decode(_ text: String) -> [UInt8]? {
        Base64Codec.decode(Array(text.utf8)[...], table: Base64Codec.urlTable)
    }

    /// `decode(_:)` over bytes already in hand (a segment of a token), without building a String first.
    public static func decode(_ characters: ArraySlice<UInt8>) -> [UInt8]? {
        Base64Codec.decode(characters, table: Base64Codec.urlTable)
    }
}

/// Base64 (RFC 4648 §4), for configuration values such as Firebase's scrypt signer keys.
public enum Base64 {
    /// Encodes with the standard alphabet and `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64Codec.encode(bytes, alphabet: Base64Codec.standardAlphabet, padded: true)
    }

    /// Decodes either the standard or the url-safe alphabet, padding optional, because configuration is pasted
    /// from tools that use both. Rejects anything else, including whitespace.
    public static func decode(_ text: String) -> [UInt8]? {
        Base64Codec.decode(Array(text.utf8)[...], table: Base64Codec.eitherTable)
    }
}

/// Lowercase hexadecimal, for digests in logs and stored hashes.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lowercase digits per byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { output in
            for (index, byte) in bytes.enumerated() {
                output[2 * index] = digits[Int(byte >> 4)]
                output[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }

    /// Accepts upper- or lowercase digits; returns `nil` for odd lengths or any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = value(of: characters[index]), let low = value(of: characters[index + 1]) else {
                return nil
            }
            output.append(high << 4 | low)
            index += 2
        }
        return output
    }

    /// The value of one hex digit (either case), or nil.
    static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The shared base64 machinery behind `Base64` and `Base64URL`.
enum Base64Codec {
    static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Maps a character to its 6-bit value, or 0xFF when it is not in the alphabet.
    static let urlTable = table(for: [urlAlphabet])
    static let eitherTable = table(for: [standardAlphabet, urlAlphabet])

    private static func table(for alphabets: [[UInt8]]) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for alphabet in alphabets {
            for (value, character) in alphabet.enumerated() {
                table[Int(character)] = UInt8(value)
            }
        }
        return table
    }

    static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
        let length = encodedLength(of: bytes.count, padded: padded)
        return String(unsafeUninitializedCapacity: length) { output in
            write(bytes, alphabet: alphabet, padded: padded, into: output)
        }
    }

    /// Appends the encoding of `bytes` to `output`, with no String in between (a JWS is built this way).
    static func append(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool, to output: inout [UInt8]) {
        let start = output.count
        let length = encodedLength(of: bytes.count, padded: padded)
        output.append(contentsOf: repeatElement(0, count: length))
        output.withUnsafeMutableBufferPointer { buffer in
            _ = write(bytes, alphabet: alphabet, padded: padded,
                      into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    static func encodedLength(of count: Int, padded: Bool) -> Int {
        padded ? (count + 2) / 3 * 4 : count / 3 * 4 + [0, 2, 3][count % 3]
    }

    /// Writes the encoding into `output`, which holds exactly `encodedLength` bytes, and returns that length.
    /// Why a buffer: appending byte by byte to an array and then copying it into a String was a tenth of the
    /// non-RSA work of minting an ID token.
    private static func write(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool,
                              into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        alphabet.withUnsafeBufferPointer { alphabet in
            bytes.withUnsafeBufferPointer { input in
                var index = 0
                var position = 0
                while index + 3 <= input.count {
                    let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    output[position] = alphabet[Int(group >> 18 & 0x3F)]
                    output[position + 1] = alphabet[Int(group >> 12 & 0x3F)]
                    output[position + 2] = alphabet[Int(group >> 6 & 0x3F)]
                    output[position + 3] = alphabet[Int(group & 0x3F)]
                    index += 3
                    position += 4
                }
                let remaining = input.count - index
                guard remaining > 0 else { return position }
                var group = UInt32(input[index]) << 16
                if remaining == 2 { group |= UInt32(input[index + 1]) << 8 }
                output[position] = alphabet[Int(group >> 18 & 0x3F)]
                output[position + 1] = alphabet[Int(group >> 12 & 0x3F)]
                position += 2
                if remaining == 2 {
                    output[position] = alphabet[Int(group >> 6 & 0x3F)]
                    position += 1
                }
                if padded {
                    for _ in remaining..<3 {
                        output[position] = UInt8(ascii: "=")
                        position += 1
                    }
                }
                return position
            }
        }
    }

    static func decode(_ text: ArraySlice<UInt8>, table: [UInt8]) -> [UInt8]? {
        var characters = text
        // Padding, when present, must complete the final quantum exactly.
        var padding = 0
        while characters.last == UInt8(ascii: "=") {
            characters.removeLast()
            padding += 1
        }
        if padding > 0 && (padding > 2 || (characters.count + padding) % 4 != 0) { return nil }
        let tail = characters.count % 4
        if tail == 1 { return nil }
        if padding > 0 && padding != (4 - tail) % 4 { return nil }

        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in characters {
            let value = table[Int(character)]
            if value == 0xFF { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // Leftover bits must be zero, so each byte string has exactly one encoding.
        if accumulator != 0 { return nil }
        return output
    }
}
