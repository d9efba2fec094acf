@testable import HTTP

/// Parses `text` in one call with default (or given) limits.
func parseOnce(_ text: String, limits: ParserLimits = ParserLimits()) -> ParseResult {
    parseOnce(Array(text.utf8), limits: limits)
}

func parseOnce(_ bytes: [UInt8], limits: ParserLimits = ParserLimits()) -> ParseResult {
    var state = ParserState()
    return HTTPRequestParser.parse(bytes[...], state: &state, limits: limits)
}

/// The failure status, or nil when the text did not fail.
func failureStatus(_ text: String, limits: ParserLimits = ParserLimits()) -> Int? {
    if case .failure(let status, _) = parseOnce(text, limits: limits) { return status }
    return nil
}

/// The parsed request, or nil.
func parsedRequest(_ text: String, limits: ParserLimits = ParserLimits()) -> ParsedRequest? {
    if case .request(let request, _) = parseOnce(text, limits: limits) { return request }
    return nil
}
