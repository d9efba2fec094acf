import AuthCore
import ProviderKit
import Storage
import WireFormats

/// `accounts:sendOobCode`: issues a code for one purpose and mails its action link, or (admin `returnOobLink`)
/// returns the link instead.
///
/// Sends to an address given in the body (`PASSWORD_RESET`, `EMAIL_SIGNIN`) are counted against the limits
/// before the address is looked up, so an unknown address spends them exactly like a known one and the
/// limits cannot tell, under improved email privacy, which addresses have accounts.
enum SendOobCode {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let request = try SendOobCodeRequest(context.body, caller: context.caller)
        let accounts = try services.email.requireAccounts()
        let continueUrl = try services.email.links.checkContinueUrl(request.continueUrl)
        let admit: @Sendable (String) async throws -> Void = { recipient in
            // Admins are not limited.
            if !context.caller.isAdmin { try await accounts.admitSend(to: recipient, context.requestContext) }
        }
        guard case (var payload, let recipient)? = try await code(for: request, accounts: accounts, admit: admit, services) else {
            // Improved email privacy: a reset for an unknown address answers as if it were sent.
            return .json(response(email: request.kind.addressGiven ?? "", issued: nil))
        }
        payload.continueUrl = continueUrl
        let issued = try await ActionEmail.issue(services, payload, recipient: recipient,
                                                 apiKey: ActionEmail.apiKey(services, context),
                                                 lang: ActionEmail.language(context), send: !request.returnLink)
        return .json(response(email: payload.email, issued: request.returnLink ? issued : nil))
    }

    /// What the code is for and where it goes; nil when nothing may be sent and the answer must not say so.
    static func code(for request: SendOobCodeRequest, accounts: any PasswordAccounts,
                     admit: (String) async throws -> Void,
                     _ services: GatewayServices) async throws -> (OobCodes.Payload, String)? {
        switch request.kind {
        case .passwordReset(let address):
            guard accounts.isEnabled else { throw AuthError(.operationNotAllowed) }
            try await admit(address)
            guard let user = try await services.store.read({ tx in try tx.user(email: address) }) else {
                let hidden = try await services.email.privacy.isOn() && !request.returnLink
                if hidden { return nil }
                throw AuthError(.emailNotFound)
            }
            var payload = OobCodes.Payload(type: .passwordReset, email: address, localId: user.localId)
            payload.passwordStamp = OobCodes.Payload.passwordStamp(of: user)
            return (payload, address)
        case .emailSignIn(let address):
            try accounts.requireEmailLinkEnabled()
            try await admit(address)
            return (OobCodes.Payload(type: .emailSignIn, email: address), address)
        case .verifyEmail(let subject):
            let user = try await account(subject, requireRecentSignIn: false, services)
            guard let address = user.email else { throw AuthError(.missingEmail) }
            try await admit(address)
            return (OobCodes.Payload(type: .verifyEmail, email: address, localId: user.localId), address)
        case .verifyAndChangeEmail(let subject, let newEmail):
            let user = try await account(subject, requireRecentSignIn: true, services)
            if let holder = try await services.store.read({ tx in try tx.user(email: newEmail) }), holder.localId != user.localId {
                throw AuthError(.emailExists)
            }
            try await admit(newEmail)
            return (OobCodes.Payload(type: .verifyAndChangeEmail, email: user.email ?? newEmail, newEmail: newEmail,
                                     localId: user.localId), newEmail)
        }
    }

    private static func account(_ subject: SendOobCodeRequest.Subject, requireRecentSignIn: Bool,
                                _ services: GatewayServices) async throws -> UserRecord {
        switch subject {
        case .accountWithEmail(let address):
            guard let found = try await services.store.read({ tx in try tx.user(email: address) }) else {
                throw AuthError.userNotFound
            }
            return found
        case .session(let idToken):
            let session = try await services.sessions.authenticate(idToken: idToken)
            if requireRecentSignIn {
                try RecentSignIn.require(session, windowSeconds: services.email.recentSignInSeconds,
                                         now: services.time.nowSeconds)
            }
            return session.user
        }
    }

    static func response(email: String, issued: ActionEmail.Issued?) -> JSONObject {
        var response: JSONObject = ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": .string(email)]
        if let issued {
            response["oobCode"] = .string(issued.code)
            response["oobLink"] = .string(issued.link)
        }
        return response
    }
}

extension SendOobCodeRequest.Kind {
    /// The address the client named, for answers that must not reveal more.
    var addressGiven: String? {
        switch self {
        case .passwordReset(let email), .emailSignIn(let email): email
        case .verifyEmail, .verifyAndChangeEmail: nil
        }
    }
}
