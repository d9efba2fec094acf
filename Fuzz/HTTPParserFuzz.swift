// libFuzzer entry point for the HTTP request parser. Compiled together with the parser's source files by
// run-http-parser-fuzz.sh (not part of the SwiftPM package). It checks the same properties as the seeded
// mutation test: no crash, failures only with 400/413/431/501/505, and identical results whether the input
// is parsed at once or fed incrementally in pieces (dropping released bytes or not).

private let allowedFailures: Set<Int> = [400, 413, 431, 501, 505]

/// Feeds the input in pieces; with `releasing`, drops what the parser releases after every call (as the
/// server does) and reports `consumed` from the request's first byte, so results compare with a whole parse.
private func parseInPieces(_ bytes: [UInt8], pieceLength: Int, limits: ParserLimits,
                           releasing: Bool) -> [ParseResult] {
    var results: [ParseResult] = []
    var state = ParserState()
    var offset = 0
    var released = 0
    var end = 0
    while end < bytes.count {
        end = min(bytes.count, end + pieceLength)
        while true {
            let result = HTTPRequestParser.parse(bytes[(offset + released)..<end], state: &state, limits: limits)
            if releasing {
                let releasable = state.releasableByteCount
                state.releaseBytes(releasable)
                released += releasable
            }
            if result == .needMore { break }
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

@_cdecl("LLVMFuzzerTestOneInput")
public func httpParserFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let small = bytes.first.map { $0 & 1 == 1 } ?? false
    let limits = small
        ? ParserLimits(maxHeaderBytes: 256, maxHeaderCount: 8, maxBodyBytes: 64, maxChunkLineBytes: 16, maxRequestBytes: 400)
        : ParserLimits()
    let whole = HTTPRequestParser.parseAll(bytes, limits: limits)
    for case .failure(let status, let reason) in whole where !allowedFailures.contains(status) {
        fatalError("unexpected failure status \(status): \(reason)")
    }
    let pieceLength = 1 + Int(bytes.last ?? 0) % 17
    let releasing = (bytes.last ?? 0) & 0x80 != 0
    let pieces = parseInPieces(bytes, pieceLength: pieceLength, limits: limits, releasing: releasing)
    if pieces != whole {
        fatalError("incremental parse differs from whole parse (piece length \(pieceLength), releasing \(releasing))")
    }
    return 0
}
