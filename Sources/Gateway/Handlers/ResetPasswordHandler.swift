import AuthCore
import ProviderKit
import Storage
import WireFormats

/// `accounts:resetPassword`: without `newPassword` it tells what a code is for (without using it up, as
/// the SDKs' `checkActionCode` needs); with it, it sets the new password. Proving the mailbox also verifies
/// the email, and every older session ends; linked identities stay. A code is void once the account's
/// email or password changed after it was issued.
enum ResetPasswordHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        let code = try body.string("oobCode")
        guard let newPassword = try body.string("newPassword") else {
            let payload = try await services.email.codes.peek(code)
            var response: JSONObject = ["kind": "identitytoolkit#ResetPasswordResponse",
                                        "requestType": .string(payload.type.rawValue)]
            if payload.type != .emailSignIn { response["email"] = .string(payload.email) }
            response.set("newEmail", payload.newEmail)
            return .json(response)
        }
        let payload = try await reset(services, code: code, newPassword: newPassword)
        return .json(["kind": "identitytoolkit#ResetPasswordResponse", "requestType": .string(payload.type.rawValue),
                      "email": .string(payload.email)])
    }

    /// Checks the code and policy, hashes on the KDF pool, then consumes the code and stores the password in
    /// one transaction.
    static func reset(_ services: GatewayServices, code: String?, newPassword: String) async throws -> OobCodes.Payload {
        let email = services.email
        let accounts = try services.email.requireAccounts()
        guard accounts.isEnabled else { throw AuthError(.passwordLoginDisabled) }
        let peeked = try await email.codes.peek(code)
        guard peeked.type == .passwordReset else { throw AuthError(.invalidOobCode) }
        let password = try accounts.checkPassword(newPassword)
        let credential = try await accounts.hash(password)
        let now = services.time.nowMilliseconds
        return try await services.store.write { tx in
            let payload = try email.codes.take(code, types: [.passwordReset], in: tx)
            // The account must still have the address and the password the code was sent for: a reset link
            // must not outlive a later change of either.
            guard var user = try payload.localId.flatMap({ try tx.user(localId: $0) }), user.email == payload.email,
                  payload.passwordStamp == OobCodes.Payload.passwordStamp(of: user) else {
                throw AuthError(.invalidOobCode)
            }
            user.password = credential
            user.passwordUpdatedAt = now
            user.emailVerified = true
            try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
            try tx.updateUser(user)
            return payload
        }
    }
}
