import AuthCore
import Crypto
import Foundation
import HTTP
import WireFormats
import ProviderKit

/// `accounts:createAuthUri` (legacy `createAuthUri`), parsed before any I/O into the variant Firebase dispatches
/// on: with a `providerId` it starts a redirect sign-in (`FederatedAuthUri`); without one it is the email lookup
/// (`fetchSignInMethodsForEmail`, `SignInMethodsLookup`).
enum CreateAuthUriHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        if let providerId = try context.body.string("providerId")?.lowercased(), !providerId.isEmpty {
            return try await FederatedAuthUri.handle(providerId: providerId, services, context)
        }
        return try await SignInMethodsLookup.handle(services, context)
    }
}

/// `accounts:createAuthUri` with a `providerId`: starts a redirect sign-in for any provider that supports it
/// (`RedirectSignIn`) and answers Firebase's `{authUri, providerId, sessionId}`.
enum FederatedAuthUri {
    /// The gateway's return URL that providers post back to (register it at the provider).
    static let handlerPath = "/__/auth/handler"

    static func handle(providerId: String, _ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        _ = try redirectProvider(providerId, services)
        let continueUri = try AuthorizedDomains.checkedContinueUri(try body.string("continueUri"), services.configuration)
        var custom: [String: String] = [:]
        for (key, value) in body.object["customParameter"]?.objectValue ?? JSONObject() {
            if let text = value.stringValue { custom[key] = text }
        }
        let started = try await begin(providerId: providerId, continueUri: continueUri,
                                      scopes: try body.string("oauthScope") ?? "", customParameters: custom,
                                      services, context.request)
        return .json(["kind": "identitytoolkit#CreateAuthUriResponse", "authUri": .string(started.authUri),
                      "providerId": .string(providerId), "sessionId": .string(started.sessionId)])
    }

    /// The provider's redirect capability, switched on; the errors `createAuthUri` answers otherwise.
    static func redirectProvider(_ providerId: String, _ services: GatewayServices) throws -> any RedirectSignIn {
        guard let provider = services.providers.provider(ProviderID(providerId), as: (any RedirectSignIn).self) else {
            throw AuthError(.invalidProviderId, "The redirect flow is not available for \(providerId)")
        }
        try provider.requireEnabled()
        return provider
    }

    /// A redirect sign-in that has been opened: where to send the user, and what identifies the session.
    struct Started: Sendable {
        var authUri: String
        var sessionId: String
        var state: String
    }

    /// Opens a redirect session for `providerId` whose answer goes to `continueUri` (already checked by the
    /// caller). Shared by `createAuthUri` and the JS SDK's sign-in window (`/emulator/auth/handler`).
    static func begin(providerId: String, continueUri: String, scopes: String, customParameters: [String: String],
                      _ services: GatewayServices, _ request: HTTPRequest) async throws -> Started {
        let provider = try redirectProvider(providerId, services)
        let redirectUri = PublicKeyHandlers.publicBaseURL(services.configuration, request) + handlerPath
        let state = SecureRandom.token(byteCount: 24)
        let rawNonce = SecureRandom.alphanumeric(length: 32)
        let scopeList = scopes.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        let codeVerifier = SecureRandom.token(byteCount: 32)
        let authUri = try await provider.authorizationURL(AuthorizationRequest(
            redirectUri: redirectUri, state: state, rawNonce: rawNonce, codeVerifier: codeVerifier, scopes: scopeList,
            customParameters: customParameters))
        let sessions = RedirectSessions(store: services.store, time: services.time, projectId: services.configuration.projectId)
        let sessionId = try await sessions.open(.init(providerId: providerId, state: state, rawNonce: rawNonce,
                                                      redirectUri: redirectUri, continueUri: continueUri,
                                                      codeVerifier: codeVerifier))
        return Started(authUri: authUri, sessionId: sessionId, state: state)
    }
}

/// Where a redirect flow (and, later, action links) may send the user back to: hosts on the configured list,
/// so the gateway cannot be used as an open redirector that hands codes and tokens to a stranger's site.
enum AuthorizedDomains {
    static func checkedContinueUri(_ text: String?, _ configuration: GatewayConfiguration) throws -> String {
        guard let text, !text.isEmpty else { throw AuthError(.missingContinueUri) }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host?.lowercased(), !host.isEmpty
        else { throw AuthError(.invalidContinueUri) }
        let allowed = configuration.authorizedDomains.map { $0.lowercased() }
        guard allowed.contains(where: { host == $0 || host.hasSuffix("." + $0) }) else {
            throw AuthError(.unauthorizedDomain, "Domain not allowlisted by project")
        }
        return text
    }
}
