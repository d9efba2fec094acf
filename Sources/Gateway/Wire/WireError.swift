import AuthCore

/// Failures that belong to the HTTP/API surface rather than to Firebase's business codes: missing or bad
/// credentials, malformed bodies, unknown routes. Rendered, like `AuthError`, only by `ErrorEnvelope`.
enum WireError: Error, Equatable, Sendable {
    /// 403: no API key and no bearer token.
    case missingAPIKey
    /// 400: an API key that is not on the configured list.
    case invalidAPIKey
    /// 401: a bearer token we do not accept.
    case invalidCredentials
    /// 401: an admin-only route called without any credential.
    case missingCredentials
    /// 400 INVALID_ARGUMENT: the body is not valid JSON / not an object / a field has the wrong type.
    case invalidPayload(String, reason: String)
    /// 400 INVALID_ARGUMENT: a query parameter of the wrong type (Google names the parameter in the message).
    case invalidParameter(String)
    /// 404, also for a known path with a method it does not serve (as Google answers).
    case notFound
}

extension WireError {
    /// A fixed label for logs (never the offending input, which may hold a secret).
    var logCode: String {
        switch self {
        case .missingAPIKey: return "MISSING_API_KEY"
        case .invalidAPIKey: return "INVALID_API_KEY"
        case .invalidCredentials: return "INVALID_CREDENTIALS"
        case .missingCredentials: return "MISSING_CREDENTIALS"
        case .invalidPayload, .invalidParameter: return "INVALID_ARGUMENT"
        case .notFound: return "NOT_FOUND"
        }
    }
}
