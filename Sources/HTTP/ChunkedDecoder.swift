/// Incremental decoder for the chunked transfer coding (RFC 9112 §7.1).
///
/// It remembers the offset of the next unread byte and the stage it is in, so each call examines only
/// bytes that arrived since the previous call. Chunk extensions are checked for legal characters and then
/// ignored; trailer fields are validated like header lines and then discarded.
///
/// Every byte of the request counts against `maxRequestBytes`, so framing (size lines, extensions, CRLFs,
/// trailers) cannot grow without bound while the decoded body stays small. Bytes already decoded can be
/// dropped by the caller (`releasableBytes`, `release`), so a chunked body is held once, decoded.
struct ChunkedDecoder: Sendable, Equatable {
    enum Stage: Sendable, Equatable {
        case sizeLine
        case data(remaining: Int)
        case dataEnd
        case trailer
    }

    var stage = Stage.sizeLine
    /// Offset (from the start of the request's buffer) of the next byte to examine.
    var position: Int
    /// Start of the size line or trailer line being scanned.
    var lineStart: Int
    var body: [UInt8] = []
    var trailerCount = 0
    var trailerStart: Int?
    /// Bytes of this request the caller dropped from the front of its buffer; offsets above are relative to
    /// what remains.
    var releasedBytes = 0

    init(position: Int) {
        self.position = position
        self.lineStart = position
    }

    /// Consumes what it can; returns the offset just past the final CRLF once the body is complete.
    mutating func advance(_ buffer: ArraySlice<UInt8>, limits: ParserLimits) throws(ParseFailure) -> Int? {
        let base = buffer.startIndex
        while position < buffer.count {
            guard requestBytes < limits.maxRequestBytes else { throw Self.tooManyBytes }
            switch stage {
            case .sizeLine:
                guard let line = try nextLine(buffer, maxLength: limits.maxChunkLineBytes) else { continue }
                let size = try Self.chunkSize(line)
                if size == 0 {
                    stage = .trailer
                    trailerStart = position
                } else {
                    guard size <= limits.maxBodyBytes - body.count else {
                        throw ParseFailure.bodyTooLarge(limit: limits.maxBodyBytes)
                    }
                    guard size <= limits.maxRequestBytes - requestBytes else { throw Self.tooManyBytes }
                    stage = .data(remaining: size)
                }
            case .data(let remaining):
                let take = min(remaining, buffer.count - position)
                body.append(contentsOf: buffer[(base + position)..<(base + position + take)])
                position += take
                if remaining == take {
                    stage = .dataEnd
                    lineStart = position
                } else {
                    stage = .data(remaining: remaining - take)
                }
            case .dataEnd:
                let expected = position == lineStart ? ByteClass.carriageReturn : ByteClass.lineFeed
                guard buffer[base + position] == expected else { throw .badRequest("chunk data not followed by CRLF") }
                position += 1
                if expected == ByteClass.lineFeed {
                    stage = .sizeLine
                    lineStart = position
                }
            case .trailer:
                if position - (trailerStart ?? position) >= limits.maxHeaderBytes {
                    throw ParseFailure(status: 431, reason: "chunked trailer section is too large")
                }
                guard let line = try nextLine(buffer, maxLength: Int.max) else { continue }
                if line.isEmpty { return position }
                trailerCount += 1
                if trailerCount > limits.maxHeaderCount {
                    throw ParseFailure(status: 431, reason: "too many trailer fields")
                }
                _ = try RequestHeadParser.parseFieldLine(line)
            }
        }
        return nil
    }

    /// Bytes of the request examined so far, including those the caller has released.
    var requestBytes: Int { releasedBytes + position }

    /// How many bytes at the front of the buffer the decoder will never read again: everything before the
    /// line being scanned, or before the next data byte. The head is among them, already parsed.
    var releasableBytes: Int {
        if case .data = stage { return position }
        return lineStart
    }

    /// Records that the caller dropped `count` (at most `releasableBytes`) bytes from the buffer's front.
    mutating func release(_ count: Int) {
        precondition(count >= 0 && count <= releasableBytes, "released bytes the decoder still needs")
        position -= count
        lineStart -= count
        trailerStart = trailerStart.map { $0 - count }
        releasedBytes += count
    }

    static let tooManyBytes = ParseFailure(status: 413, reason: "request is too large on the wire")

    /// Scans one byte; when it completes a CRLF-terminated line, returns the line without its CRLF.
    private mutating func nextLine(_ buffer: ArraySlice<UInt8>, maxLength: Int) throws(ParseFailure) -> ArraySlice<UInt8>? {
        let base = buffer.startIndex
        if position - lineStart >= maxLength {
            throw .badRequest("chunk size line is too long")
        }
        let byte = buffer[base + position]
        let previous: UInt8 = position > lineStart ? buffer[base + position - 1] : 0
        position += 1
        if byte == ByteClass.lineFeed {
            guard previous == ByteClass.carriageReturn else { throw .badRequest("bare LF in chunked framing") }
            let line = buffer[(base + lineStart)..<(base + position - 2)]
            lineStart = position
            return line
        }
        if previous == ByteClass.carriageReturn { throw .badRequest("bare CR in chunked framing") }
        return nil
    }

    /// `chunk-size [ BWS ";" chunk-ext ]`: up to 16 hex digits, then only legal extension characters.
    static func chunkSize(_ line: ArraySlice<UInt8>) throws(ParseFailure) -> Int {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index < line.endIndex, let digit = ByteClass.hexValue(line[index]) {
            digits += 1
            guard digits <= 16 else { throw .badRequest("chunk size has too many digits") }
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            size = overflow ? Int.max : min(Int.max - 15, shifted) + digit
            index += 1
        }
        guard digits > 0 else { throw .badRequest("missing chunk size") }
        var rest = line[index...]
        while let first = rest.first, ByteClass.isWhitespace(first) { rest = rest.dropFirst() }
        guard rest.isEmpty || rest.first == UInt8(ascii: ";") else { throw .badRequest("invalid chunk size line") }
        guard rest.allSatisfy(ByteClass.isFieldValue) else { throw .badRequest("invalid chunk extension") }
        return size
    }
}
