import AuthCore
import ProviderKit
import Storage
import WireFormats

/// `accounts:signInWithEmailLink` (legacy `emailLinkSignin`): signs in the owner of the address, creates the
/// account, or links the address to the user of `idToken`. The caller must repeat the address the link was
/// sent to (the cross-device defence), and the code is used up.
///
/// Opening the link proves the mailbox: if the account's address was never verified, whoever set its
/// password never proved they own it, so that password goes and older sessions end (pre-hijacking defence,
/// as in the linking engine).
enum EmailLinkSignInHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        let email = services.email
        let accounts = try services.email.requireAccounts()
        try accounts.requireEmailLinkEnabled()
        let address = try EmailAddress.require(try body.string("email"))
        let code = try body.string("oobCode")
        guard code?.isEmpty == false else { throw AuthError(.missingOobCode) }
        let session = try await body.string("idToken").asyncMap { try await services.sessions.authenticate(idToken: $0) }
        let now = services.time.nowMilliseconds
        let (user, identities, isNew): (UserRecord, [ProviderIdentity], Bool)
        do {
            (user, identities, isNew) = try await services.store.write { tx in
                let payload = try email.codes.take(code, types: [.emailSignIn], in: tx)
                guard payload.email == address else {
                    throw AuthError(.invalidEmail, "The email provided does not match the sign-in email address.")
                }
                let holder = try tx.user(email: address)
                if let session, let holder, holder.localId != session.user.localId { throw AuthError(.emailExists) }
                var isNew = false
                var user: UserRecord
                if let existing = try session.map({ try tx.user(localId: $0.user.localId) }) ?? holder {
                    user = existing
                } else {
                    user = UserRecord(localId: UserIDs.generate(), email: address, validSince: now / 1000, createdAt: now)
                    isNew = true
                }
                guard !user.disabled else { throw AuthError.userDisabled }
                if !isNew && user.email == address && !user.emailVerified && user.password != nil {
                    user.password = nil
                    try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
                }
                user.email = address
                user.emailVerified = true
                user.emailLinkSignin = true
                user.lastLoginAt = now
                if isNew { try tx.insertUser(user) } else { try tx.updateUser(user) }
                return (user, try tx.identities(localId: user.localId), isNew)
            }
        } catch StoreError.uniqueViolation(.email) {
            throw AuthError(.emailExists)
        }
        let issued = try await services.sessions.startSession(for: user, identities: identities,
                                                              signInProvider: ProviderID.password.rawValue)
        var response: JSONObject = ["kind": "identitytoolkit#EmailLinkSigninResponse", "email": .string(address),
                                    "localId": .string(user.localId), "isNewUser": .bool(isNew)]
        SessionFields.add(issued, to: &response)
        return .json(response)
    }
}
