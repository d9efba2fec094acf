import AuthCore
import ProviderKit
import Storage

/// `accounts:update` with an `oobCode` (the SDKs' `applyActionCode`): verifies an email, or verifies and
/// switches to a new one. Also used by the action page.
enum ApplyOobCode {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let (user, identities, payload) = try await apply(services, code: try context.body.string("oobCode"))
        var response = UserInfoJSON.setAccountInfoResponse(user, identities: identities)
        response.set("newEmail", payload.newEmail)
        return .json(response)
    }

    static func apply(_ services: GatewayServices, code: String?,
                      types: Set<OobRequestType> = [.verifyEmail, .verifyAndChangeEmail])
        async throws -> (UserRecord, [ProviderIdentity], OobCodes.Payload) {
        let now = services.time.nowMilliseconds
        let codes = services.email.codes
        do {
            return try await services.store.write { tx in
                let payload = try codes.take(code, types: types, in: tx)
                guard var user = try payload.localId.flatMap({ try tx.user(localId: $0) }) else {
                    throw AuthError(.invalidOobCode)
                }
                guard !user.disabled else { throw AuthError.userDisabled }
                if let newEmail = payload.newEmail, payload.type == .verifyAndChangeEmail {
                    user.email = newEmail
                    try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
                } else {
                    // The address may have changed since the link was sent: it verifies only the one it was sent to.
                    guard user.email == payload.email else { throw AuthError(.invalidOobCode) }
                }
                user.emailVerified = true
                try tx.updateUser(user)
                return (user, try tx.identities(localId: user.localId), payload)
            }
        } catch StoreError.uniqueViolation(.email) {
            throw AuthError(.emailExists)
        }
    }
}
