import Testing
@testable import WireFormats

@Suite("JSON string bytes: the word-at-a-time scan agrees with a byte-by-byte one")
struct JSONStringBytesTests {
    private func naive(_ bytes: [UInt8], from start: Int) -> Int {
        bytes[start...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } ?? bytes.count
    }

    @Test("every byte value at every position of a buffer longer than two words, from every start")
    func everyByteEveryPosition() {
        for value in 0...255 {
            for position in 0..<19 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 19)
                bytes[position] = UInt8(value)
                for start in 0...19 {
                    let fast = bytes.withUnsafeBufferPointer { JSONStringBytes.firstSpecial(in: $0, from: start) }
                    #expect(fast == naive(bytes, from: start), "byte \(value) at \(position) from \(start)")
                    if fast != naive(bytes, from: start) { return }
                }
            }
        }
    }

    @Test("random buffers with several special and high bytes")
    func randomBuffers() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0x9F, 0xA2, 0xDC, 0xFF] + Array(0x41...0x5A)
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...70, using: &generator)
            let bytes = (0..<count).map { _ in Bool.random(using: &generator) ? UInt8(ascii: "x") : alphabet.randomElement(using: &generator)! }
            let start = Int.random(in: 0...count, using: &generator)
            let fast = bytes.withUnsafeBufferPointer { JSONStringBytes.firstSpecial(in: $0, from: start) }
            #expect(fast == naive(bytes, from: start))
        }
    }

    @Test("an empty buffer and a start at the end find nothing")
    func empty() {
        #expect([UInt8]().withUnsafeBufferPointer { JSONStringBytes.firstSpecial(in: $0, from: 0) } == 0)
        #expect(Array("abc".utf8).withUnsafeBufferPointer { JSONStringBytes.firstSpecial(in: $0, from: 3) } == 3)
    }

    @Test("strings with quotes, escapes and control bytes on both sides of word boundaries parse and serialize as before")
    func parserAndSerializer() throws {
        for offset in 0..<17 {
            let prefix = String(repeating: "p", count: offset)
            let text = prefix + "q\"b\\c\u{1}d\u{1F}e" + prefix + "é☃"
            let encoded = JSONSerializer.bytes(.string(text))
            #expect(try JSONParser.parse(encoded) == .string(text))
            #expect(throws: JSONParseError.self, "a raw control byte must be refused") {
                try JSONParser.parse("\"\(prefix)\u{7}\(prefix)\"")
            }
        }
    }
}
