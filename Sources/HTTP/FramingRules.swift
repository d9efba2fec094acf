/// How the body of a request is delimited.
enum BodyFraming: Sendable, Equatable {
    case none
    case length(Int)
    case chunked
}

/// Message-framing and connection semantics of a parsed head (RFC 9112 §6, §9), including the
/// request-smuggling guards: a request whose length could be read two ways is refused.
enum FramingRules {
    static func framing(for head: RequestHead, limits: ParserLimits) throws(ParseFailure) -> BodyFraming {
        let headers = head.headers
        let isHTTP11 = head.version == "HTTP/1.1"
        let hosts = headers.values("Host")
        if hosts.count > 1 || (isHTTP11 && hosts.isEmpty) {
            throw .badRequest("an HTTP/1.1 request needs exactly one Host field")
        }
        let transferCodings = headers.values("Transfer-Encoding")
        let lengths = headers.values("Content-Length")
        var framing = BodyFraming.none
        if !transferCodings.isEmpty {
            guard lengths.isEmpty else { throw .badRequest("Content-Length together with Transfer-Encoding") }
            guard isHTTP11 else { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
            let codings = listElements(transferCodings)
            guard codings == ["chunked"] else {
                throw ParseFailure(status: 501, reason: "only the chunked transfer coding is supported")
            }
            framing = .chunked
        } else if !lengths.isEmpty {
            let length = try contentLength(lengths)
            if length > limits.maxBodyBytes {
                throw ParseFailure.bodyTooLarge(limit: limits.maxBodyBytes)
            }
            framing = length > 0 ? .length(length) : .none
        }
        return framing
    }

    /// All Content-Length values (and comma-separated elements) must be the same run of digits.
    /// Values too large for `Int` saturate to `Int.max`, which the body limit then refuses with 413.
    static func contentLength(_ values: [String]) throws(ParseFailure) -> Int {
        var agreed: Int?
        for value in values {
            try forEachElement(of: value) { (digits: Substring.UTF8View) throws(ParseFailure) in
                agreed = try agreedLength(digits, agreed)
            }
        }
        return agreed ?? 0
    }

    /// One Content-Length element, checked against the ones before it.
    private static func agreedLength(_ digits: Substring.UTF8View, _ agreed: Int?) throws(ParseFailure) -> Int {
        guard !digits.isEmpty, digits.allSatisfy(ByteClass.isDigit) else {
            throw .badRequest("invalid Content-Length")
        }
        var value = 0
        for digit in digits {
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            value = overflowA || overflowB ? Int.max : sum
        }
        if let agreed, agreed != value { throw .badRequest("conflicting Content-Length values") }
        return value
    }

    /// Calls `body` with each comma-separated element of `value`, whitespace trimmed, empty ones included.
    /// Works on the UTF-8 bytes in place: `,` and the whitespace are ASCII, and the Character-level split
    /// with reversed copies it replaces allocated several arrays per request.
    static func forEachElement<Failure: Error>(
        of value: String, _ body: (Substring.UTF8View) throws(Failure) -> Void
    ) throws(Failure) {
        let bytes = value.utf8
        var start = bytes.startIndex
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.endIndex
            var element = bytes[start..<end]
            while let first = element.first, ByteClass.isWhitespace(first) { element = element.dropFirst() }
            while let last = element.last, ByteClass.isWhitespace(last) { element = element.dropLast() }
            try body(element)
            guard end < bytes.endIndex else { return }
            start = bytes.index(after: end)
        }
    }

    /// Splits comma-separated list fields into trimmed, lowercased, non-empty elements.
    static func listElements(_ values: [String]) -> [String] {
        var elements: [String] = []
        for value in values {
            forEachElement(of: value) { element in
                guard !element.isEmpty else { return }
                elements.append(String(decoding: element.map(ByteClass.lowercased), as: UTF8.self))
            }
        }
        return elements
    }
}

extension RequestHead {
    /// Applies `Connection` and `Expect` semantics, which depend on the version.
    func withConnectionSemantics() -> RequestHead {
        var head = self
        let options = FramingRules.listElements(headers.values("Connection"))
        if head.version == "HTTP/1.1" {
            head.keepAlive = !options.contains("close")
            head.expectsContinue = FramingRules.listElements(headers.values("Expect")).contains("100-continue")
        } else {
            head.keepAlive = options.contains("keep-alive") && !options.contains("close")
        }
        return head
    }
}
