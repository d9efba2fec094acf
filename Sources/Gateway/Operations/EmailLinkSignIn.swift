import AuthCore
import Linking
import ProviderKit
import WireFormats

/// `accounts:signInWithEmailLink` (legacy `emailLinkSignin`): signs in the owner of the address, creates the
/// account, or adds the address to the user of `idToken`. The caller must repeat the address the link was sent
/// to (the cross-device defence), and the code is spent in the transaction that applies the merge.
///
/// Opening the link proves the mailbox, so it goes through the linking engine like a provider that vouches for
/// an email: an account whose address was never proven is taken over — its password, phone number and every
/// identity linked before go, and older sessions end (pre-hijacking defence, as for federated sign-in).
enum EmailLinkSignIn {
    struct Request: Sendable {
        var email: String
        var oobCode: String
        var idToken: String?

        init(_ body: RequestBody) throws {
            email = try EmailAddress.require(try body.string("email"))
            guard let code = try body.string("oobCode"), !code.isEmpty else { throw AuthError(.missingOobCode) }
            oobCode = code
            idToken = try body.string("idToken")
        }
    }

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        .json(try await run(try Request(context.body), services))
    }

    static func run(_ request: Request, _ services: GatewayServices) async throws -> JSONObject {
        try services.email.requireAccounts().requireEmailLinkEnabled()
        let session = try await request.idToken.asyncMap { try await services.sessions.authenticate(idToken: $0) }
        if let session, session.user.email != request.email {
            // Adding or changing the signed-in user's address is sensitive: a stolen long-lived token must not move
            // the account to an address its holder controls.
            try RecentSignIn.require(session, windowSeconds: services.email.recentSignInSeconds, now: services.time.nowSeconds)
        }
        let merge = LinkingService.Request(credential: .emailLink(address: request.email),
                                           intent: session.map { .link(localId: $0.user.localId) } ?? .signIn(autoCreate: true))
        let codes = services.email.codes
        let outcome = try await services.linking.resolve(merge, policy: try await services.projectSettings.linkingPolicy()) { tx in
            let payload = try codes.take(request.oobCode, types: [.emailSignIn], in: tx)
            guard payload.email == request.email else {
                throw AuthError(.invalidEmail, "The email provided does not match the sign-in email address.")
            }
        }
        guard case .session(let user, let identities, let isNew) = outcome else { throw AuthError(.emailExists) }
        var response: JSONObject = ["kind": "identitytoolkit#EmailLinkSigninResponse", "email": .string(request.email),
                                    "localId": .string(user.localId), "isNewUser": .bool(isNew)]
        SessionFields.add(try await services.sessions.startSession(for: user, identities: identities,
                                                                   signInProvider: ProviderID.password.rawValue).issued,
                          to: &response)
        return response
    }
}
