import AuthCore
import Crypto
import ProviderKit

/// The end of a redirect sign-in inside `signInWithIdp`: the request carries the `sessionId` from
/// `createAuthUri` and, in its `requestUri`, the parameters the handler forwarded. The session is closed on the
/// first attempt, the returned `state` must be the session's, and the provider verifies the credential bound to
/// the session's nonce and redirect URI.
enum RedirectCompletion {
    static func verify(_ request: IdpRequest, sessionId: String, _ services: GatewayServices,
                       _ context: OperationContext) async throws -> VerifiedIdentity {
        let sessions = RedirectSessions(store: services.store, time: services.time, projectId: services.configuration.projectId)
        guard let session = try await sessions.take(sessionId) else {
            throw AuthError(.invalidIdpResponse, "The sign-in session is unknown, expired or already used; start again with createAuthUri")
        }
        if let named = request.providerId, named != session.providerId {
            throw AuthError(.invalidIdpResponse, "The credential is for another provider than the session")
        }
        guard let state = request.parameters["state"],
              constantTimeEquals(Array(state.utf8), Array(session.state.utf8)) else {
            throw AuthError(.invalidIdpResponse, "The state does not match the sign-in session")
        }
        if let error = request.parameters["error"] {
            throw AuthError(.invalidIdpResponse, "The provider reported \(error.prefix(64))")
        }
        guard let provider = services.providers.provider(ProviderID(session.providerId), as: (any RedirectSignIn).self) else {
            throw request.unknownCredentialError
        }
        try provider.requireEnabled()
        var parameters = request.parameters
        parameters["providerId"] = session.providerId
        return try await provider.completeRedirect(
            ProviderAssertion(parameters: parameters, requestUri: request.requestUri),
            binding: RedirectBinding(redirectUri: session.redirectUri, rawNonce: session.rawNonce,
                                     codeVerifier: session.codeVerifier),
            context: context.requestContext)
    }
}
