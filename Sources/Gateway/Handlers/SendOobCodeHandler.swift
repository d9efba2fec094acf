import AuthCore
import ProviderEmail

/// `accounts:sendOobCode` (legacy `getOobConfirmationCode`) and the admin variant under
/// `/v1/projects/{p}/accounts:sendOobCode`, which can return the link instead of sending it.
///
/// Sends to an address given in the body (`PASSWORD_RESET`, `EMAIL_SIGNIN`) are counted against the limits
/// before the address is looked up, so an unknown address spends them exactly like a known one and the
/// limits cannot tell, under improved email privacy, which addresses have accounts.
enum SendOobCodeHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        let email = services.email
        guard let typeText = try body.string("requestType"), typeText != "OOB_REQ_TYPE_UNSPECIFIED" else {
            throw AuthError(.missingReqType)
        }
        guard let type = OobRequestType(rawValue: typeText) else {
            if ["RECOVER_EMAIL", "REVERT_SECOND_FACTOR_ADDITION", "VERIFY_EMAIL_LINK"].contains(typeText) {
                throw AuthError(.operationNotAllowed, "\(typeText) is not supported")
            }
            throw WireError.invalidPayload("Invalid value at 'request_type' (TYPE_ENUM), \"\(typeText.prefix(64))\"", reason: "invalid")
        }
        let returnLink = try body.bool("returnOobLink") ?? false
        if returnLink && !context.caller.isAdmin { throw AuthError(.insufficientPermission) }
        let adminLink = returnLink && !body.has("idToken")
        let continueUrl = try email.links.checkContinueUrl(try body.string("continueUrl"))
        let privateMode = try await email.privacy.isOn()
        var payload: OobCodes.Payload
        var recipient: String
        switch type {
        case .passwordReset:
            guard email.provider.isEnabled else { throw AuthError(.operationNotAllowed) }
            let address = try EmailAddress.require(try body.string("email"))
            try await admit(services, address, context)
            guard let user = try await services.store.read({ tx in try tx.user(email: address) }) else {
                if privateMode && !adminLink {
                    return .json(["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": .string(address)])
                }
                throw AuthError(.emailNotFound)
            }
            payload = .init(type: type, email: address, localId: user.localId)
            payload.passwordStamp = OobCodes.Payload.passwordStamp(of: user)
            recipient = address
        case .emailSignIn:
            try email.provider.requireEmailLinkEnabled()
            let address = try EmailAddress.require(try body.string("email"))
            try await admit(services, address, context)
            payload = .init(type: type, email: address)
            recipient = address
        case .verifyEmail, .verifyAndChangeEmail:
            let user: UserRecord
            if adminLink {
                let address = try EmailAddress.require(try body.string("email"))
                guard let found = try await services.store.read({ tx in try tx.user(email: address) }) else {
                    throw AuthError.userNotFound
                }
                user = found
            } else {
                guard let token = try body.string("idToken") else {
                    throw type == .verifyEmail ? AuthError.invalidIdToken : AuthError.missingIdToken
                }
                let session = try await services.sessions.authenticate(idToken: token)
                if type == .verifyAndChangeEmail {
                    try RecentSignIn.require(session, windowSeconds: email.settings.recentSignInSeconds,
                                             now: services.time.nowSeconds)
                }
                user = session.user
            }
            if type == .verifyEmail {
                guard let address = user.email else { throw AuthError(.missingEmail) }
                payload = .init(type: type, email: address, localId: user.localId)
                recipient = address
            } else {
                guard let newText = try body.string("newEmail") else { throw AuthError(.missingNewEmail) }
                guard let newEmail = EmailAddress.canonical(newText) else { throw AuthError(.invalidEmail) }
                if let holder = try await services.store.read({ tx in try tx.user(email: newEmail) }),
                   holder.localId != user.localId {
                    throw AuthError(.emailExists)
                }
                payload = .init(type: type, email: user.email ?? newEmail, newEmail: newEmail, localId: user.localId)
                recipient = newEmail
            }
            try await admit(services, recipient, context)
        }
        payload.continueUrl = continueUrl
        let issued = try await ActionEmail.issue(services, payload, recipient: recipient,
                                                 apiKey: ActionEmail.apiKey(services, context),
                                                 lang: ActionEmail.language(context), send: !returnLink)
        var response: JSONObject = ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": .string(payload.email)]
        if returnLink {
            response["oobCode"] = .string(issued.code)
            response["oobLink"] = .string(issued.link)
        }
        return .json(response)
    }

    /// Counts a send against the per-address and per-IP limits; admins are not limited.
    private static func admit(_ services: GatewayServices, _ recipient: String, _ context: OperationContext) async throws {
        if !context.caller.isAdmin { try await services.email.provider.admitSend(to: recipient, context.requestContext) }
    }
}
