import HTTP

/// CORS as the Firebase emulator does it: any origin is reflected, preflights answer 204 and reflect the
/// requested headers. Browsers need this because web apps call the gateway from their own origin.
enum CORS {
    static let allowedMethods = "GET, HEAD, POST, PATCH, DELETE, OPTIONS"

    static func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Access-Control-Allow-Origin", request.headers["origin"] ?? "*")
        headers.add("Access-Control-Allow-Methods", allowedMethods)
        headers.add("Access-Control-Allow-Headers", request.headers["access-control-request-headers"]
                        ?? "Content-Type, Authorization, X-Goog-Api-Key, X-Client-Version, X-Firebase-Locale")
        headers.add("Access-Control-Max-Age", "86400")
        if request.headers["access-control-request-private-network"] != nil {
            headers.add("Access-Control-Allow-Private-Network", "true")
        }
        headers.add("Vary", "Origin, Access-Control-Request-Headers")
        return HTTPResponse(status: 204, headers: headers)
    }

    static func decorate(_ response: inout HTTPResponse, for request: HTTPRequest) {
        guard let origin = request.headers["origin"] else { return }
        response.headers.set("Access-Control-Allow-Origin", origin)
        response.headers.add("Vary", "Origin")
    }
}
