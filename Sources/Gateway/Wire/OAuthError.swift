/// An OAuth 2.0 token-endpoint error (RFC 6749 §5.2): the token endpoint answers in OAuth's shape,
/// `{"error":"invalid_grant","error_description":"…"}`, which google-auth and the other Google client
/// libraries read (and raise as a refresh error), not in Firebase's envelope. Rendered by `ErrorEnvelope`.
struct OAuthError: Error, Equatable, Sendable {
    enum Code: String, Sendable {
        case invalidRequest = "invalid_request"
        case invalidGrant = "invalid_grant"
        case unsupportedGrantType = "unsupported_grant_type"
    }

    let code: Code
    let description: String

    init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
