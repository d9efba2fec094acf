import WireFormats

/// The token fields every sign-in response carries (`expiresIn` is a string, as iOS expects): the one renderer
/// of a session on the wire.
enum SessionFields {
    static func add(_ issued: SessionService.Issued, to response: inout JSONObject) {
        response["idToken"] = .string(issued.idToken)
        response["refreshToken"] = .string(issued.refreshToken)
        response["expiresIn"] = .string(String(issued.expiresIn))
    }
}

extension Optional {
    /// `map` for an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
