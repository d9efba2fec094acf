import AuthCore
import Linking
import WireFormats
import ProviderKit

/// `accounts:signInWithIdp` (legacy `verifyAssertion`): federated sign-in, sign-up, linking (with an ID token)
/// and reauthentication, including Firebase's credential-already-in-use flow with a pending token.
enum SignInWithIdpHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let request = try IdpRequest(context.body)
        // The linking user is checked first, so a bad or stale ID token never spends a single-use credential
        // (a pending token, an Apple nonce). Its problems are always plain 400s, never folded into errorMessage.
        let intent: LinkingIntent
        if let idToken = request.idToken {
            let session = try await services.sessions.authenticate(idToken: idToken)
            intent = .link(localId: session.user.localId)
        } else {
            intent = .signIn(autoCreate: request.autoCreate)
        }
        let identity = try await verifiedIdentity(request, services, context)
        let policy = try await services.projectSettings.linkingPolicy()
        let outcome = try await services.linking.resolve(
            .init(credential: .federated(identity), intent: intent, returnIdpCredential: request.returnIdpCredential),
            policy: policy)
        var response = IdpResponse.base(identity)
        switch outcome {
        case .session(let user, let identities, let isNewUser):
            response["localId"] = .string(user.localId)
            if let email = identity.email?.address.lowercased(), user.email == email {
                response["emailVerified"] = .bool(user.emailVerified)
            }
            if isNewUser { response["isNewUser"] = true }
            SessionFields.add(try await services.sessions.startSession(for: user, identities: identities,
                                                                       signInProvider: identity.providerId.rawValue).issued,
                              to: &response)
        case .needConfirmation(let localId, let providers):
            response["needConfirmation"] = true
            response["localId"] = .string(localId)
            response["verifiedProvider"] = .array(providers.map(JSONValue.string))
            response["pendingToken"] = .string(try await services.pendingCredentials.issue(for: identity))
        case .conflictInBody(let code):
            response["errorMessage"] = .string(code.rawValue)
            response["pendingToken"] = .string(try await services.pendingCredentials.issue(for: identity))
        }
        return .json(response)
    }

    /// The identity the request proves: from a pending token (already verified earlier, no second trip to
    /// the provider) or from the provider plugin named by `providerId`.
    static func verifiedIdentity(_ request: IdpRequest, _ services: GatewayServices,
                                 _ context: OperationContext) async throws -> VerifiedIdentity {
        if let pendingToken = request.pendingToken {
            return try await services.pendingCredentials.take(pendingToken, expectedProvider: request.providerId)
        }
        if let sessionId = request.sessionId, request.parameters["state"] != nil {
            return try await RedirectCompletion.verify(request, sessionId: sessionId, services, context)
        }
        guard let providerId = request.providerId else { throw request.unknownCredentialError }
        let assertion = ProviderAssertion(parameters: request.parameters, requestUri: request.requestUri)
        // Emulator mode accepts fake credentials for every provider, configured or not, as the Firebase
        // emulator does (app test suites sign in "with Apple" without configuring Apple).
        if let emulator = services.emulatorVerifier, !EmulatorIdpVerifier.reservedProviderIds.contains(providerId) {
            return try emulator.verify(assertion, providerId: providerId)
        }
        let provider = services.providers[ProviderID(providerId)]
        try provider?.requireEnabled()
        if let verifier = provider as? any AssertionVerifier {
            return try await verifier.verify(assertion, context: context.requestContext)
        }
        throw request.unknownCredentialError
    }
}

/// The IdP part of a `signInWithIdp` response: what the provider said about the user and the credential
/// fields the client needs to rebuild its credential (e.g. for `credentialFromError`).
enum IdpResponse {
    static func base(_ identity: VerifiedIdentity) -> JSONObject {
        var response: JSONObject = ["kind": "identitytoolkit#VerifyAssertionResponse",
                                    "providerId": .string(identity.providerId.rawValue),
                                    "federatedId": .string(federatedId(identity))]
        if let email = identity.email {
            response["email"] = .string(email.address.lowercased())
            response["emailVerified"] = .bool(email.isVerified)
        }
        response.set("displayName", identity.displayName)
        response.set("photoUrl", identity.photoUrl)
        response.set("screenName", identity.screenName)
        response.set("rawUserInfo", identity.rawUserInfo)
        for key in ["oauthIdToken", "oauthAccessToken", "oauthTokenSecret", "oauthRefreshToken", "oauthAuthorizationCode"] {
            response.set(key, identity.echoedCredential[key])
        }
        return response
    }

    /// The response's `federatedId`: Google accounts as the URL Firebase (and its emulator) answers with,
    /// `https://accounts.google.com/<sub>`; every other provider as the bare subject. Only this field: the stored
    /// identity, `rawId` and `providerUserInfo[].federatedId` stay the bare subject, as Firebase keeps them.
    static func federatedId(_ identity: VerifiedIdentity) -> String {
        FederatedIdURL.render(providerId: identity.providerId.rawValue, subject: identity.subject)
    }
}
