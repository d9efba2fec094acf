import AuthCore
import Linking
import Storage
import WireFormats

/// A change to one account through `accounts:update`: profile changes by the user (ID token) or by an admin
/// (`localId`), attribute deletion, unlinking providers, admin-only fields (disable, custom claims, token
/// revocation via `validSince`), and email and password changes. A new email is an account merge and goes
/// through the linking engine (`EMAIL_EXISTS` while another account holds it).
///
/// JSON `null` for `displayName` or `photoUrl` deletes the attribute, like `deleteAttribute`: the JS SDK's
/// `updateProfile({displayName: null})` and pyrebase send nulls, and production accepts them.
enum AccountUpdate {
    struct Request: Sendable {
        enum Target: Sendable {
            case user(idToken: String?)
            case admin(localId: String)
        }

        var target: Target
        var change: AccountChange
        var body: RequestBody

        init(_ body: RequestBody, caller: Caller) throws {
            let admin = caller.actsAsAdmin(body)
            if admin {
                guard let id = try body.string("localId"), !id.isEmpty else { throw AuthError(.missingLocalId) }
                target = .admin(localId: id)
            } else {
                target = .user(idToken: try body.string("idToken"))
            }
            change = try AccountChange(body: body, admin: admin)
            self.body = body
        }
    }

    /// The response, and the change of address a user made (which `EmailRecovery` tells the previous address
    /// about; an admin's change is the admin's statement and mails nobody).
    static func run(_ request: Request, _ services: GatewayServices) async throws
        -> (response: JSONObject, emailChange: EmailRecovery.Change?) {
        let session: SessionService.Authenticated?
        let localId: String
        switch request.target {
        case .admin(let id):
            (session, localId) = (nil, id)
        case .user(let idToken):
            let authenticated = try await services.sessions.authenticate(idToken: idToken)
            (session, localId) = (authenticated, authenticated.user.localId)
        }
        let change = request.change
        let credentials = try await CredentialChange.prepare(services, request.body, session: session)
        let policy = try await services.projectSettings.linkingPolicy()
        let applier = services.linking.applier
        let now = services.time.nowMilliseconds
        // Revoking tokens through a user's own request would sign them out: hand them a fresh session,
        // stored after the revocation in the same transaction.
        let sessionProvider = credentials.password != nil
            ? ProviderID.password.rawValue : session?.token.signInProvider ?? ProviderID.anonymous.rawValue
        let endsOwnSession = session != nil && (change.revokesTokens || credentials.revokesTokens)
        let freshSession = endsOwnSession
            ? try services.sessions.newRefreshToken(localId: localId, signInProvider: sessionProvider) : nil
        let write = { @Sendable (tx: any StoreTransaction) throws -> (UserRecord, [ProviderIdentity], String?) in
            let previousEmail = try tx.user(localId: localId)?.email
            if let email = credentials.email {
                _ = try applier.decideAndApply(.init(credential: .emailChange(address: email, proven: false),
                                                     intent: .link(localId: localId)), policy: policy, tx)
            }
            guard var user = try tx.user(localId: localId) else { throw AuthError.userNotFound }
            let revocations = change.revocations(wasDisabled: user.disabled)
                + (credentials.revokesTokens ? [.everything] : [])
            for provider in change.deleteProviders {
                _ = try tx.deleteIdentity(localId: localId, providerId: provider)
            }
            try change.linkProvider?.apply(to: localId, nowMilliseconds: now, tx)
            change.apply(to: &user)
            credentials.applyPassword(to: &user, nowMilliseconds: now)
            for revocation in revocations {
                try SessionRevocation.revoke(revocation, &user, nowMilliseconds: now, in: tx)
            }
            try tx.updateUser(user)
            if case let (_, record)? = freshSession { try tx.insertRefreshToken(record) }
            return (user, try tx.identities(localId: localId), previousEmail)
        }
        // The unique constraints decide a race the snapshot did not see (another instance took the address or
        // the number after it was read), wherever the write that meets it is: nothing is changed, and the answer
        // is the one the engine gives when it sees the holder.
        let (user, identities, previousEmail): (UserRecord, [ProviderIdentity], String?)
        do {
            (user, identities, previousEmail) = try await services.store.write(write)
        } catch StoreError.uniqueViolation(.phoneNumber) {
            throw AuthError(.phoneNumberExists)
        } catch StoreError.uniqueViolation(.email) {
            throw AuthError(.emailExists)
        }
        var response = UserInfoJSON.setAccountInfoResponse(user, identities: identities)
        if case let (refreshToken, _)? = freshSession {
            SessionFields.add(try services.sessions.issued(refreshToken: refreshToken, for: user, identities: identities,
                                                           signInProvider: sessionProvider), to: &response)
        }
        let emailChange = session == nil ? nil
            : EmailRecovery.change(localId: localId, before: previousEmail, after: credentials.email == nil ? nil : user.email)
        return (response, emailChange)
    }
}
