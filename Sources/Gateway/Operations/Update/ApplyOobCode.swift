import AuthCore
import Linking
import ProviderKit
import Storage

/// `accounts:update` with an `oobCode` (the SDKs' `applyActionCode`): verifies an email, verifies and switches
/// to a new one, or restores the previous one after a change (`RECOVER_EMAIL`, see `EmailRecovery`). Also used
/// by the action page.
enum ApplyOobCode {
    static func apply(_ services: GatewayServices, code: String?,
                      types: Set<OobRequestType> = [.verifyEmail, .verifyAndChangeEmail, .recoverEmail])
        async throws -> (UserRecord, [ProviderIdentity], OobCodes.Payload) {
        let codes = services.email.codes
        let applier = services.linking.applier
        let policy = try await services.projectSettings.linkingPolicy()
        do {
            return try await services.store.write { tx in
                let payload = try codes.take(code, types: types, in: tx)
                guard var user = try payload.localId.flatMap({ try tx.user(localId: $0) }) else {
                    throw AuthError(.invalidOobCode)
                }
                guard !user.disabled else { throw AuthError.userDisabled }
                if payload.type == .recoverEmail {
                    // The previous mailbox takes its address back (EMAIL_EXISTS if another account took it
                    // meanwhile); proven, so verified, and every session ends.
                    _ = try applier.decideAndApply(.init(credential: .emailChange(address: payload.email, proven: true),
                                                         intent: .link(localId: user.localId)), policy: policy, tx)
                    user = try tx.user(localId: user.localId) ?? user
                } else if let newEmail = payload.newEmail, payload.type == .verifyAndChangeEmail {
                    // The code proves the new mailbox; taking the address is still an account merge.
                    _ = try applier.decideAndApply(.init(credential: .emailChange(address: newEmail, proven: true),
                                                         intent: .link(localId: user.localId)), policy: policy, tx)
                    user = try tx.user(localId: user.localId) ?? user
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
