import AuthCore
import ProviderKit

extension AppleProvider {
    public func revokeStoredTokens(_ secrets: [String: String]) async throws {
        guard let tokens, let refreshToken = secrets["refreshToken"], let clientId = secrets["clientId"] else { return }
        do {
            try await tokens.revoke(token: refreshToken, hint: "refresh_token", clientId: clientId)
        } catch .unavailable {
            throw AppleTokenClient.Failure.unavailable
        } catch {
            // Apple refused (e.g. the token was issued to a client ID no longer configured): retrying cannot help.
            log.warning("apple refused to revoke a stored token", [("reason", .string("\(error)"))])
        }
    }

    public func revoke(token: String, type: ProviderTokenType, redirectUri: String?) async throws {
        try requireEnabled()
        guard let tokens else {
            throw AuthError(.operationNotAllowed, "Apple token revocation needs apple.teamId, apple.keyId and the .p8 key")
        }
        // The token does not say which client ID it was issued to: web codes (with a redirect URI) usually
        // belong to a Services ID, native ones to a bundle ID, so those are tried first.
        let clients = redirectUri == nil ? configuration.bundleIds + configuration.servicesIds
                                         : configuration.servicesIds + configuration.bundleIds
        var lastRefusal = "no client ID configured"
        for clientId in clients {
            do {
                switch type {
                case .code:
                    let result = try await tokens.exchange(code: token, clientId: clientId, redirectUri: redirectUri)
                    if let refresh = result.refreshToken {
                        try await tokens.revoke(token: refresh, hint: "refresh_token", clientId: clientId)
                    } else if let access = result.accessToken {
                        try await tokens.revoke(token: access, hint: "access_token", clientId: clientId)
                    }
                case .refreshToken:
                    try await tokens.revoke(token: token, hint: "refresh_token", clientId: clientId)
                case .accessToken:
                    try await tokens.revoke(token: token, hint: "access_token", clientId: clientId)
                }
                return
            } catch .rejected(let reason) {
                lastRefusal = reason
            } catch {
                throw AuthError(.invalidIdpResponse, "Apple could not be reached; try again")
            }
        }
        throw AuthError(.invalidIdpResponse, "Apple rejected the token (\(lastRefusal))")
    }
}
