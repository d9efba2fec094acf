import AuthCore
import ProviderKit
import WireFormats

/// `POST /v2/accounts:revokeToken` (Identity Platform): revokes a provider token for the signed-in user, which
/// Apple requires apps to do when a user deletes their account from the client side.
///
/// `tokenType` is accepted as the enum name or its ordinal as a string (the iOS SDK sends `"3"` for CODE);
/// with CODE the provider exchanges the code first and revokes the resulting token.
enum RevokeTokenHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        _ = try await services.sessions.authenticate(idToken: body.string("idToken"))
        guard let providerId = try body.string("providerId"), !providerId.isEmpty else {
            throw AuthError(.invalidProviderId, "Missing providerId")
        }
        guard let revoker = services.providers.provider(ProviderID(providerId), as: (any TokenRevoker).self) else {
            throw AuthError(.invalidProviderId, "Token revocation is not supported for \(providerId.prefix(64))")
        }
        guard let typeText = try body.enumName("tokenType", WireEnums.tokenType), let type = ProviderTokenType(wireValue: typeText) else {
            throw WireError.invalidPayload("Invalid value at 'token_type'", reason: "invalid")
        }
        guard let token = try body.string("token"), !token.isEmpty else {
            throw WireError.invalidPayload("token is required", reason: "invalid")
        }
        let redirectUri = try body.string("redirectUri").flatMap { $0.isEmpty ? nil : $0 }
        try await revoker.revoke(token: token, type: type, redirectUri: redirectUri)
        return .json([:])
    }
}
