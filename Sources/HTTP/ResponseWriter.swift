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
        var text = "HTTP/1.1 \(status) \(StatusReason.phrase(for: status))\r\n"
        for (name, value) in response.headers where isSafe(name: name, value: value) {
            if !reservedNames.contains(where: { HTTPHeaders.namesMatch($0, name) }) {
                text += "\(name): \(value)\r\n"
            }
        }
        text += "Date: \(date)\r\n"
        let bodyAllowed = status != 204 && status != 304
        if bodyAllowed {
            text += "Content-Length: \(response.body.count)\r\n"
        }
        if !keepAlive {
            text += "Connection: close\r\n"
        } else if http10KeepAlive {
            text += "Connection: keep-alive\r\n"
        }
        text += "\r\n"
        var bytes = Array(text.utf8)
        if bodyAllowed && !isHeadRequest {
            bytes.append(contentsOf: response.body)
        }
        return bytes
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
