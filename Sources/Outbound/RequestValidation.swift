import CCurl

/// Checks done on the caller's task before a request is queued, so a refused request never reaches a worker
/// thread or the network.
enum RequestValidation {
    /// Accepts only absolute http/https URLs with a host, parsed by libcurl's own URL parser so that what is
    /// checked here is exactly what the transfer would use.
    static func checkURL(_ url: String) throws(OutboundError) {
        guard let handle = curl_url() else { throw .transport("out of memory") }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK else { throw .invalidURL }
        guard let scheme = part(CURLUPART_SCHEME, of: handle)?.lowercased(), scheme == "http" || scheme == "https"
        else { throw .invalidURL }
        guard let host = part(CURLUPART_HOST, of: handle), !host.isEmpty else { throw .invalidURL }
    }

    /// Refuses method tokens and headers that could smuggle extra header lines into the request.
    static func checkMessage(_ request: OutboundRequest) throws(OutboundError) {
        guard !request.method.isEmpty, request.method.utf8.allSatisfy(isTokenByte) else {
            throw .invalidRequest("method is not an HTTP token")
        }
        for (name, value) in request.headers {
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                throw .invalidRequest("header name is not an HTTP token")
            }
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw .invalidRequest("header value contains CR, LF or NUL")
            }
        }
    }

    /// libcurl treats 0 as "no timeout", so the shortest accepted timeout is one millisecond.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 1 }
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return Int.max }
        return max(1, Int(clamping: scaled + attoseconds / 1_000_000_000_000_000))
    }

    private static func part(_ which: CURLUPart, of handle: OpaquePointer) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, which, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }

    /// RFC 9110 `tchar`: the bytes allowed in a method or header name.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
