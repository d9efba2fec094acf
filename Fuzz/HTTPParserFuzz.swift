// libFuzzer entry point for the HTTP request parser. Compiled together with the parser's source files by
// run-http-parser-fuzz.sh (not part of the SwiftPM package). It checks the same properties as the seeded
// mutation test: no crash, failures only with 400/413/431/501/505, and identical results whether the input
// is parsed at once or fed incrementally in pieces.

private let allowedFailures: Set<Int> = [400, 413, 431, 501, 505]

private func parseInPieces(_ bytes: [UInt8], pieceLength: Int, limits: ParserLimits) -> [ParseResult] {
    var results: [ParseResult] = []
    var state = ParserState()
    var offset = 0
    var end = 0
    while end < bytes.count {
        end = min(bytes.count, end + pieceLength)
        while true {
            let result = HTTPRequestParser.parse(bytes[offset..<end], state: &state, limits: limits)
            if result == .needMore { break }
            results.append(result)
            guard case .request(_, let consumed) = result else { return results }
            offset += consumed
        }
    }
    results.append(.needMore)
    return results
}

@_cdecl("LLVMFuzzerTestOneInput")
public func httpParserFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let small = bytes.first.map { $0 & 1 == 1 } ?? false
    let limits = small ? ParserLimits(maxHeaderBytes: 256, maxHeaderCount: 8, maxBodyBytes: 64) : ParserLimits()
    let whole = HTTPRequestParser.parseAll(bytes, limits: limits)
    for case .failure(let status, let reason) in whole where !allowedFailures.contains(status) {
        fatalError("unexpected failure status \(status): \(reason)")
    }
    let pieceLength = 1 + Int(bytes.last ?? 0) % 17
    let pieces = parseInPieces(bytes, pieceLength: pieceLength, limits: limits)
    if pieces != whole {
        fatalError("incremental parse differs from whole parse (piece length \(pieceLength))")
    }
    return 0
}
