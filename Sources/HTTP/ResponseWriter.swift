/// Turns an `HTTPResponse` into bytes, owning the framing headers so a handler cannot get them wrong.
enum ResponseWriter {
    /// Header names the server always writes itself.
    private static let reservedNames = ["content-length", "transfer-encoding", "connection", "date"]

    static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// - Parameters:
    ///   - isHeadRequest: suppresses the body (the length still describes it, as for GET).
    ///   - keepAlive: false adds `Connection: close`; `http10KeepAlive` adds `Connection: keep-alive`.
    static func serialize(_ response: HTTPResponse, isHeadRequest: Bool, keepAlive: Bool,
                          http10KeepAlive: Bool, date: String) -> [UInt8] {
        let status = (200...599).contains(response.status) ? response.status : 500
        let bodyAllowed = status != 204 && status != 304
        // Written as bytes into one buffer sized for the whole response: one allocation, no String building.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + (bodyAllowed && !isHeadRequest ? response.body.count : 0))
        bytes.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(status, to: &bytes)
        bytes.append(0x20)
        bytes.append(contentsOf: StatusReason.phrase(for: status).utf8)
        bytes.append(contentsOf: crlf)
        for (name, value) in response.headers where isSafe(name: name, value: value) {
            if !reservedNames.contains(where: { HTTPHeaders.namesMatch($0, name) }) {
                bytes.append(contentsOf: name.utf8)
                bytes.append(contentsOf: ": ".utf8)
                bytes.append(contentsOf: value.utf8)
                bytes.append(contentsOf: crlf)
            }
        }
        bytes.append(contentsOf: "Date: ".utf8)
        bytes.append(contentsOf: date.utf8)
        bytes.append(contentsOf: crlf)
        if bodyAllowed {
            bytes.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(response.body.count, to: &bytes)
            bytes.append(contentsOf: crlf)
        }
        if !keepAlive {
            bytes.append(contentsOf: "Connection: close\r\n".utf8)
        } else if http10KeepAlive {
            bytes.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        bytes.append(contentsOf: crlf)
        if bodyAllowed && !isHeadRequest {
            bytes.append(contentsOf: response.body)
        }
        return bytes
    }

    private static let crlf: [UInt8] = [0x0D, 0x0A]

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// The response for a request the parser or the timers refused, as the configuration renders it; always
    /// followed by closing the connection.
    static func errorResponse(_ response: HTTPResponse, date: String) -> [UInt8] {
        serialize(response, isHeadRequest: false, keepAlive: false, http10KeepAlive: false, date: date)
    }

    /// Drops handler headers that would break framing or allow response splitting.
    static func isSafe(name: String, value: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(ByteClass.isToken) && value.utf8.allSatisfy(ByteClass.isFieldValue)
    }

    /// Whether the handler asked for the connection to be closed after this response.
    static func requestsClose(_ response: HTTPResponse) -> Bool {
        FramingRules.listElements(response.headers.values("Connection")).contains("close")
    }
}
