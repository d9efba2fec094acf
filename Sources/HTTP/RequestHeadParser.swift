/// The parsed request line and header fields, before the body is read.
struct RequestHead: Sendable, Equatable {
    var method: String
    var target: String
    var version: String
    var headers: HTTPHeaders
    var keepAlive = true
    var expectsContinue = false
}

/// Validates the request line and header lines of a complete head.
enum RequestHeadParser {
    static func parse(_ head: HeadLines) throws(ParseFailure) -> RequestHead {
        guard let requestLine = head.lines.first else { throw .badRequest("missing request line") }
        var result = try parseRequestLine(requestLine)
        result.headers.reserveCapacity(head.lines.count - 1)
        for line in head.lines.dropFirst() {
            let (name, value) = try parseFieldLine(line)
            result.headers.add(name, value)
        }
        return result.withConnectionSemantics()
    }

    /// `method SP request-target SP HTTP-version`, with exactly one space between parts.
    static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(ParseFailure) -> RequestHead {
        // Exactly two spaces: the first ends the method, the last starts the version, none in between.
        guard let firstSpace = line.firstIndex(of: ByteClass.space), let lastSpace = line.lastIndex(of: ByteClass.space),
              firstSpace < lastSpace,
              !line[line.index(after: firstSpace)..<lastSpace].contains(ByteClass.space) else {
            throw .badRequest("malformed request line")
        }
        let method = line[line.startIndex..<firstSpace]
        let target = line[line.index(after: firstSpace)..<lastSpace]
        let version = line[line.index(after: lastSpace)...]
        guard !method.isEmpty, method.allSatisfy(ByteClass.isToken) else { throw .badRequest("invalid method") }
        guard !target.isEmpty, target.allSatisfy(ByteClass.isTargetByte) else {
            throw .badRequest("invalid request target")
        }
        let versionText = try parseVersion(version)
        let methodText = String(decoding: method, as: UTF8.self)
        let targetText = String(decoding: target, as: UTF8.self)
        if methodText == "CONNECT" {
            throw ParseFailure(status: 501, reason: "CONNECT is not supported")
        }
        guard isAcceptedTargetForm(targetText, method: methodText) else {
            throw .badRequest("unsupported request-target form")
        }
        return RequestHead(method: methodText, target: targetText, version: versionText, headers: HTTPHeaders())
    }

    /// Accepts HTTP/1.0 and HTTP/1.1; a well-formed other version is 505, anything else 400.
    static func parseVersion(_ version: ArraySlice<UInt8>) throws(ParseFailure) -> String {
        let start = version.startIndex
        guard version.count == 8, version[start..<start + 5].elementsEqual("HTTP/".utf8),
              ByteClass.isDigit(version[start + 5]), version[start + 6] == UInt8(ascii: "."),
              ByteClass.isDigit(version[start + 7]) else {
            throw .badRequest("malformed HTTP version")
        }
        guard version[start + 5] == UInt8(ascii: "1") else {
            throw ParseFailure(status: 505, reason: "HTTP version not supported")
        }
        switch version[start + 7] {
        case UInt8(ascii: "1"): return "HTTP/1.1"
        case UInt8(ascii: "0"): return "HTTP/1.0"
        default: throw ParseFailure(status: 505, reason: "HTTP version not supported")
        }
    }

    /// origin-form (`/path`), asterisk-form (`*`, OPTIONS only) and absolute-form (`scheme://...`).
    static func isAcceptedTargetForm(_ target: String, method: String) -> Bool {
        if target.hasPrefix("/") { return true }
        if target == "*" { return method == "OPTIONS" }
        guard let schemeEnd = ByteClass.schemeSeparator(in: target) else { return false }
        let scheme = target.utf8[..<schemeEnd]
        guard let first = scheme.first, ByteClass.lowercased(first) >= UInt8(ascii: "a"),
              ByteClass.lowercased(first) <= UInt8(ascii: "z") else { return false }
        return scheme.allSatisfy { ByteClass.isToken($0) }
    }

    /// `field-name ":" OWS field-value OWS`; rejects obs-fold and whitespace before the colon.
    static func parseFieldLine(_ line: ArraySlice<UInt8>) throws(ParseFailure) -> (String, String) {
        guard let first = line.first, !ByteClass.isWhitespace(first) else {
            throw .badRequest("obsolete line folding is not accepted")
        }
        guard let colon = line.firstIndex(of: ByteClass.colon) else { throw .badRequest("header line without colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(ByteClass.isToken) else { throw .badRequest("invalid header name") }
        var value = line[(colon + 1)...]
        while let head = value.first, ByteClass.isWhitespace(head) { value = value.dropFirst() }
        while let tail = value.last, ByteClass.isWhitespace(tail) { value = value.dropLast() }
        guard value.allSatisfy(ByteClass.isFieldValue) else { throw .badRequest("invalid header value") }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }
}
