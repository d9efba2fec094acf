import AuthCore
import Linking
import ProviderKit
import WireFormats

/// A password account for a new address, or with `idToken` the upgrade of the signed-in (typically anonymous)
/// user, who keeps its `localId`. Both are account merges: the linking engine decides (`EMAIL_EXISTS`,
/// `PROVIDER_ALREADY_LINKED` for a user who already has a password) and applies.
///
/// Adding a password through `idToken` is a sensitive change: a non-anonymous user must have signed in
/// recently, and a changed email ends older sessions — otherwise a stolen long-lived token could take the
/// account over.
enum PasswordSignUp {
    struct Request: Sendable {
        var email: String
        var password: String?
        var idToken: String?
        var displayName: String?

        init(_ body: RequestBody) throws {
            email = try EmailAddress.require(try body.string("email"))
            password = try body.string("password")
            idToken = try body.string("idToken")
            displayName = try body.string("displayName").map {
                try ProfileLimits.check($0, field: "displayName", limit: ProfileLimits.displayName)
            }
        }
    }

    static func run(_ request: Request, _ services: GatewayServices, _ context: OperationContext) async throws -> JSONObject {
        let accounts = try services.email.requireAccounts()
        try accounts.admitSignUp(context.requestContext)
        let password = try accounts.checkPassword(request.password)
        let session = try await request.idToken.asyncMap { try await services.sessions.authenticate(idToken: $0) }
        if let session {
            // Whether the user may take a password (PROVIDER_ALREADY_LINKED) is the linking engine's decision.
            try RecentSignIn.require(session, windowSeconds: services.email.recentSignInSeconds,
                                     now: services.time.nowSeconds)
        }
        let merge = LinkingService.Request(
            credential: .password(address: request.email),
            intent: session.map { .link(localId: $0.user.localId) } ?? .signIn(autoCreate: true),
            password: try await accounts.hash(password), displayName: request.displayName)
        let policy = try await services.projectSettings.linkingPolicy()
        guard case .session(let user, let identities, _) = try await services.linking.resolve(merge, policy: policy) else {
            throw AuthError(.emailExists)
        }
        var response: JSONObject = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": .string(user.localId),
                                    "email": .string(request.email)]
        response.set("displayName", user.displayName)
        SessionFields.add(try await services.sessions.startSession(for: user, identities: identities,
                                                                   signInProvider: ProviderID.password.rawValue).issued,
                          to: &response)
        return response
    }
}
