import AuthCore
import Crypto
import WireFormats

/// `POST /securetoken.googleapis.com/v1/token`: refresh-token grant. Accepts JSON (camelCase, iOS and
/// pyrebase) and form bodies (snake_case, JS SDK); answers in snake_case with `access_token == id_token`.
enum TokenHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        guard let grantType = try body.string("grantType"), !grantType.isEmpty else { throw AuthError(.missingGrantType) }
        guard grantType == "refresh_token" else { throw AuthError(.invalidGrantType) }
        guard let refreshToken = try body.string("refreshToken"), !refreshToken.isEmpty else {
            throw AuthError(.missingRefreshToken)
        }
        let (issued, user) = try await services.sessions.refresh(refreshToken)
        return .json([
            "access_token": .string(issued.idToken),
            "expires_in": .string(String(issued.expiresIn)),
            "token_type": "Bearer",
            "refresh_token": .string(issued.refreshToken),
            "id_token": .string(issued.idToken),
            "user_id": .string(user.localId),
            "project_id": .string(services.configuration.resolvedProjectNumber),
        ])
    }
}

extension GatewayConfiguration {
    /// Firebase returns the project *number* as `project_id`; without a configured one we derive a stable
    /// 12-digit number from the project id.
    var resolvedProjectNumber: String {
        if let projectNumber { return projectNumber }
        let digest = SHA256.hash(projectId)
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return String(100_000_000_000 + value % 900_000_000_000)
    }
}
