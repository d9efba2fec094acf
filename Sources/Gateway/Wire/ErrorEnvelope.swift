import AuthCore
import HTTP
import WireFormats

/// The one place that turns errors into Google's error envelope:
/// `{"error":{"code":400,"message":"CODE : detail","errors":[{"message","reason","domain"}],"status"?}}`.
///
/// Firebase SDKs parse `message` (split on " : "), so business errors carry the Firebase code there and
/// omit `status`, exactly as the Identity Toolkit does; transport-level errors carry Google's `status`.
enum ErrorEnvelope {
    static func render(_ error: AuthError) -> (status: Int, body: JSONObject) {
        (400, envelope(code: 400, message: error.message, reason: "invalid", status: nil))
    }

    static func render(_ error: WireError) -> (status: Int, body: JSONObject) {
        switch error {
        case .missingAPIKey:
            return (403, envelope(code: 403, message: "The request is missing a valid API key.", reason: "forbidden",
                                  status: "PERMISSION_DENIED"))
        case .invalidAPIKey:
            return (400, envelope(code: 400, message: "API key not valid. Please pass a valid API key.",
                                  reason: "keyInvalid", status: "INVALID_ARGUMENT"))
        case .invalidCredentials:
            return (401, envelope(
                code: 401,
                message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
                errorMessage: "Invalid Credentials", reason: "authError", status: "UNAUTHENTICATED",
                location: "Authorization"))
        case .missingCredentials:
            return (401, envelope(
                code: 401,
                message: "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
                errorMessage: "Login Required.", reason: "required", status: "UNAUTHENTICATED",
                location: "Authorization"))
        case .invalidPayload(let detail, let reason):
            return (400, envelope(code: 400, message: "Invalid JSON payload received. \(detail)", reason: reason,
                                  status: "INVALID_ARGUMENT"))
        case .invalidParameter(let message):
            return (400, envelope(code: 400, message: message, reason: "invalid", status: "INVALID_ARGUMENT"))
        case .notFound:
            return (404, envelope(code: 404, message: "Not Found", reason: "notFound", status: "NOT_FOUND"))
        }
    }

    /// OAuth's token-endpoint shape (RFC 6749 §5.2; always 400 here: every refusal is about the request's grant).
    static func render(_ error: OAuthError) -> (status: Int, body: JSONObject) {
        (400, ["error": .string(error.code.rawValue), "error_description": .string(error.description)])
    }

    /// For statuses the gateway decides outside Firebase's codes (503 while the store is unavailable, 500), still
    /// in Google's shape.
    static func render(httpStatus: Int, message: String) -> JSONObject {
        envelope(code: httpStatus, message: message, reason: "invalid", status: nil)
    }

    /// A request the HTTP layer refused before routing (malformed, too slow, too large): still Google's envelope,
    /// so SDKs show a real message instead of failing to parse text. The message is the server's reason with a
    /// capital and a full stop (413's reason is Google's wording with the limit that applied). `Access-Control-Allow-Origin:
    /// *` lets a browser app read it (the request's Origin is not known when the head itself was refused).
    static func refusal(status: Int, reason: String) -> HTTPResponse {
        let message = reason.prefix(1).uppercased() + reason.dropFirst() + "."
        let googleStatus: String
        switch status {
        case 408: googleStatus = "DEADLINE_EXCEEDED"
        case 501: googleStatus = "UNIMPLEMENTED"
        case 503: googleStatus = "UNAVAILABLE"
        default: googleStatus = "INVALID_ARGUMENT"
        }
        let body = envelope(code: status, message: message, reason: status >= 500 ? "backendError" : "invalid",
                            status: googleStatus)
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json; charset=UTF-8")
        headers.add("Access-Control-Allow-Origin", "*")
        return HTTPResponse(status: status, headers: headers, body: JSONSerializer.bytes(.object(body), pretty: true))
    }

    private static func envelope(
        code: Int, message: String, errorMessage: String? = nil, reason: String, status: String?,
        location: String? = nil
    ) -> JSONObject {
        var item: JSONObject = ["message": .string(errorMessage ?? message), "reason": .string(reason),
                                "domain": "global"]
        if let location {
            item["location"] = .string(location)
            item["locationType"] = "header"
        }
        var error: JSONObject = ["code": .int(Int64(code)), "message": .string(message), "errors": [.object(item)]]
        error.set("status", status)
        return ["error": .object(error)]
    }
}
