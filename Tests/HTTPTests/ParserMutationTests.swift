import TestSupport
import Testing
@testable import HTTP

/// Valid requests that mutations start from.
enum MutationCorpus {
    static let requests: [String] = [
        "GET /v1/accounts:lookup?key=abc HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n",
        "POST /v1/accounts:signUp HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{\"returnSecure\":1}",
        "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nabcd\r\n3\r\nxyz\r\n0\r\nT: 1\r\n\r\n",
        "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "HEAD /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
        "POST /e HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc",
        "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\nHost: a\r\n\r\n",
    ]

    static let insertions: [String] = [
        "\r\n", "\n", "\r", ":", " ", "\t", "\0", "Content-Length: 99999999999999999999\r\n",
        "Transfer-Encoding: chunked\r\n", "Content-Length: 5\r\n", "Content-Length: 1\r\n", "Transfer-Encoding: gzip\r\n",
        " folded\r\n", "Host: b\r\n", "ffffffffffffffff\r\n", "HTTP/2.0", "0\r\n\r\n", "\u{80}\u{FF}",
        String(repeating: "X-Big: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n", count: 30),
    ]

    /// Applies one to three random mutations to a random corpus entry.
    static func mutant(_ random: inout SplitMix64) -> [UInt8] {
        var bytes = Array(random.pick(requests).utf8)
        for _ in 0...random.below(3) {
            let position = random.below(bytes.count + 1)
            switch random.below(7) {
            case 0 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next())
            case 1:
                bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
            case 2:
                bytes = Array(bytes.prefix(position))
            case 3:
                bytes.insert(contentsOf: Array(random.pick(insertions).utf8), at: position)
            case 4:
                bytes = duplicateLine(bytes, random: &random)
            case 5:
                bytes.insert(contentsOf: Array(random.pick(insertions).utf8), at: lineStart(in: bytes, near: position))
            default:
                bytes += Array(random.pick(requests).utf8)
            }
        }
        return bytes
    }

    private static func lineStart(in bytes: [UInt8], near position: Int) -> Int {
        var index = min(position, bytes.count)
        while index > 0 && bytes[index - 1] != 10 { index -= 1 }
        return index
    }

    private static func duplicateLine(_ bytes: [UInt8], random: inout SplitMix64) -> [UInt8] {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        guard lines.count > 2 else { return bytes }
        let chosen = 1 + random.below(lines.count - 2)
        var result = bytes
        let start = lines[..<chosen].reduce(0) { $0 + $1.count + 1 }
        result.insert(contentsOf: Array(lines[chosen]) + [10], at: start)
        return result
    }
}

@Suite("Parser mutation (seeded)")
struct ParserMutationTests {
    static let allowedFailures: Set<Int> = [400, 413, 431, 501, 505]

    /// Feeds growing prefixes cut at `splits`, collecting results the way `parseAll` does. With `releasing`,
    /// it drops what the parser releases after every call, as the server does; `consumed` is reported
    /// relative to the request's first byte so the results compare with an unreleased parse.
    static func parseIncrementally(_ bytes: [UInt8], splits: [Int], limits: ParserLimits,
                                   releasing: Bool = false) -> [ParseResult] {
        var results: [ParseResult] = []
        var state = ParserState()
        var offset = 0
        var released = 0
        for end in splits + [bytes.count] where end >= offset + released {
            while true {
                let result = HTTPRequestParser.parse(bytes[(offset + released)..<end], state: &state, limits: limits)
                if releasing {
                    let releasable = state.releasableByteCount
                    state.releaseBytes(releasable)
                    released += releasable
                }
                guard result != .needMore else { break }
                guard case .request(let request, let consumed) = result else {
                    results.append(result)
                    return results
                }
                results.append(.request(request, consumed: consumed + released))
                offset += consumed + released
                released = 0
            }
        }
        results.append(.needMore)
        return results
    }

    @Test("20,000 mutated requests never crash, fail only with 4xx/501/505, and parse the same in any split, released or not")
    func mutations() {
        var random = SplitMix64(seed: 0x6A7E_4005_E000_0001)
        let limitChoices = [ParserLimits(), ParserLimits(maxHeaderBytes: 256, maxHeaderCount: 8, maxBodyBytes: 16),
                            ParserLimits(maxHeaderBytes: 256, maxHeaderCount: 8, maxBodyBytes: 64, maxChunkLineBytes: 8,
                                         maxRequestBytes: 160)]
        var statuses: [Int: Int] = [:]
        var mismatches = 0
        var badStatuses = 0
        for _ in 0..<20_000 {
            let bytes = MutationCorpus.mutant(&random)
            let limits = random.pick(limitChoices)
            let whole = HTTPRequestParser.parseAll(bytes, limits: limits)
            for case .failure(let status, _) in whole {
                statuses[status, default: 0] += 1
                if !Self.allowedFailures.contains(status) { badStatuses += 1 }
            }
            let splits = (0..<random.below(6)).map { _ in random.below(bytes.count + 1) }.sorted()
            let pieces = random.below(4) == 0 ? Array(0...bytes.count) : splits
            let releasing = random.below(2) == 0
            if Self.parseIncrementally(bytes, splits: pieces, limits: limits, releasing: releasing) != whole {
                mismatches += 1
            }
        }
        #expect(badStatuses == 0)
        #expect(mismatches == 0)
        #expect(statuses.keys.count >= 4, "mutations should reach several failure kinds: \(statuses)")
    }
}
