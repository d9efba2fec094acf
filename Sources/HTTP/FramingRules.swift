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
        for element in values.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let digits = element.utf8.drop(while: ByteClass.isWhitespace).reversed()
                .drop(while: ByteClass.isWhitespace).reversed()
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
            agreed = value
        }
        return agreed ?? 0
    }

    /// Splits comma-separated list fields into trimmed, lowercased, non-empty elements.
    static func listElements(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { element in
                let trimmed = element.utf8.drop(while: ByteClass.isWhitespace).reversed()
                    .drop(while: ByteClass.isWhitespace).reversed()
                return String(decoding: trimmed.map(ByteClass.lowercased), as: UTF8.self)
            }
            .filter { !$0.isEmpty }
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
