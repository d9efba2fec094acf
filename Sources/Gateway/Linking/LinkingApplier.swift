import AuthCore
import Linking
import Storage
import WireFormats

extension LinkingCredential {
    var isEmailChange: Bool { if case .emailChange = self { return true } else { return false } }
}

/// Applies the linking engine's decision inside a write transaction: the one place where an account gains a
/// credential, is created for one, or is taken over.
struct LinkingApplier: Sendable {
    let sealer: Sealer
    let time: any TimeSource

    /// Reads the snapshot, decides, and applies, all in `tx`.
    func decideAndApply(_ request: LinkingService.Request, policy: LinkingPolicy,
                        _ tx: any StoreTransaction) throws -> LinkingService.Outcome {
        let snapshot = try LinkingSnapshotReader.read(request.credential, intent: request.intent, tx)
        let decision = LinkingEngine.decide(request.credential, intent: request.intent, snapshot: snapshot, policy: policy,
                                            returnIdpCredential: request.returnIdpCredential)
        let now = time.nowMilliseconds
        switch decision {
        case .signIn(let localId), .alreadyLinked(let localId):
            var user = try existingUser(localId, tx)
            if case .federated(let identity) = request.credential {
                try refreshIdentity(identity, of: localId, tx)
            }
            if case .emailLink = request.credential { user.emailLinkSignin = true }
            user.lastLoginAt = now
            user.lastRefreshAt = now
            try tx.updateUser(user)
            return .session(user: user, identities: try tx.identities(localId: localId), isNewUser: false)
        case .createUser:
            let user = try newUser(for: request, policy: policy, now: now)
            try tx.insertUser(user)
            if case .federated(let identity) = request.credential {
                try tx.insertIdentity(try record(identity, localId: user.localId, now: now))
            }
            return .session(user: user, identities: try tx.identities(localId: user.localId), isNewUser: true)
        case .link(let localId, let takeOver):
            // An admin may change the address of a disabled account; nobody may sign in to one.
            var user = try existingUser(localId, tx, mayBeDisabled: request.credential.isEmailChange)
            if takeOver { try takeOverUnprovenAccount(&user, now: now, tx) }
            try attach(request, to: &user, takeOver: takeOver, policy: policy, now: now, tx)
            try tx.updateUser(user)
            if case .federated(let identity) = request.credential {
                try tx.insertIdentity(try record(identity, localId: localId, now: now))
            }
            return .session(user: user, identities: try tx.identities(localId: localId), isNewUser: false)
        case .needConfirmation(let localId, let providers):
            return .needConfirmation(localId: localId, verifiedProviders: providers)
        case .conflict(let conflict):
            return try Self.answer(conflict)
        }
    }

    /// A conflict becomes the body answer or the error the engine chose.
    static func answer(_ conflict: LinkingConflict) throws -> LinkingService.Outcome {
        switch conflict.answer {
        case .errorMessageWithPendingCredential: return .conflictInBody(conflict.code)
        case .error: throw AuthError(conflict.code)
        }
    }

    private func existingUser(_ localId: String, _ tx: any StoreTransaction, mayBeDisabled: Bool = false) throws -> UserRecord {
        guard let user = try tx.user(localId: localId) else { throw AuthError.userNotFound }
        guard mayBeDisabled || !user.disabled else { throw AuthError.userDisabled }
        return user
    }

    /// The address was never proven by whoever registered it, and this credential proves it: everything that
    /// could belong to someone else goes — the password, the phone number and every identity linked so far (none
    /// of them vouched for the email, or it would be verified) — and every session made with them ends.
    private func takeOverUnprovenAccount(_ user: inout UserRecord, now: Int64, _ tx: any StoreTransaction) throws {
        user.password = nil
        user.phoneNumber = nil
        for linked in try tx.identities(localId: user.localId) {
            _ = try tx.deleteIdentity(localId: user.localId, providerId: linked.providerId)
        }
        try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
    }

    /// What each kind of credential changes on the account it joins.
    private func attach(_ request: LinkingService.Request, to user: inout UserRecord, takeOver: Bool, policy: LinkingPolicy,
                        now: Int64, _ tx: any StoreTransaction) throws {
        switch request.credential {
        case .federated(let identity):
            Self.merge(identity, into: &user, takeOver: takeOver, policy: policy)
        case .emailLink(let address):
            // A new address for the signed-in user is an email change: every older session ends (the caller gets
            // a fresh one), as with accounts:update.
            if user.email != address { try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx) }
            user.email = address
            user.emailVerified = true
            user.emailLinkSignin = true
        case .password(let address):
            if user.email != address {
                user.emailVerified = false
                try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
            }
            user.email = address
            user.password = request.password
            user.passwordUpdatedAt = now
            user.displayName = request.displayName ?? user.displayName
        case .emailChange(let address, let proven):
            if user.email != address || proven {
                // Firebase's `initialEmail`: the address before the first change, kept from then on.
                if let previous = user.email, previous != address, user.initialEmail == nil { user.initialEmail = previous }
                user.email = address
                user.emailVerified = proven
                try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
            }
            return
        case .phone(let number, _):
            user.phoneNumber = number
        }
        user.lastLoginAt = now
        user.lastRefreshAt = now
    }

    private func newUser(for request: LinkingService.Request, policy: LinkingPolicy, now: Int64) throws -> UserRecord {
        var user = UserRecord(localId: UserIDs.generate(createdAt: now), validSince: now / 1000, createdAt: now,
                              lastLoginAt: now, lastRefreshAt: now)
        switch request.credential {
        case .federated(let identity):
            user.displayName = identity.displayName
            user.photoUrl = identity.photoUrl
            if policy.oneAccountPerEmail, let email = identity.email {
                user.email = email.address.lowercased()
                user.emailVerified = email.isVerified
            }
        case .emailLink(let address):
            user.email = address
            user.emailVerified = true
            user.emailLinkSignin = true
        case .password(let address):
            user.email = address
            user.password = request.password
            user.passwordUpdatedAt = now
            user.displayName = request.displayName
        case .phone(let number, _):
            user.phoneNumber = number
        case .emailChange:
            throw AuthError.userNotFound
        }
        return user
    }

    /// Profile rules when an identity joins an existing account: a missing top-level email is filled (under
    /// one-account-per-email), a vouched-for matching email becomes verified, and on a takeover the profile is
    /// replaced only by non-empty provider values.
    static func merge(_ identity: VerifiedIdentity, into user: inout UserRecord, takeOver: Bool, policy: LinkingPolicy) {
        if let email = identity.email {
            let address = email.address.lowercased()
            if user.email == nil && policy.oneAccountPerEmail {
                user.email = address
                user.emailVerified = email.isVerified
            } else if user.email == address && email.isVerified {
                user.emailVerified = true
            }
        }
        if takeOver {
            if let name = identity.displayName, !name.isEmpty { user.displayName = name }
            if let photo = identity.photoUrl, !photo.isEmpty { user.photoUrl = photo }
        } else {
            if user.displayName == nil { user.displayName = identity.displayName }
            if user.photoUrl == nil { user.photoUrl = identity.photoUrl }
        }
    }

    /// Keeps the stored provider profile current on each sign-in; blanks never overwrite values.
    private func refreshIdentity(_ identity: VerifiedIdentity, of localId: String, _ tx: any StoreTransaction) throws {
        guard var stored = try tx.identity(providerId: identity.providerId.rawValue, federatedId: identity.subject),
              stored.localId == localId else { return }
        if let email = identity.email?.address.lowercased() { stored.email = email }
        if let name = identity.displayName, !name.isEmpty { stored.displayName = name }
        if let photo = identity.photoUrl, !photo.isEmpty { stored.photoUrl = photo }
        if let screen = identity.screenName, !screen.isEmpty { stored.screenName = screen }
        if let phone = identity.phoneNumber, !phone.isEmpty { stored.phoneNumber = phone }
        if let raw = identity.rawUserInfo { stored.rawUserInfo = Self.mergedUserInfo(stored: stored.rawUserInfo, fresh: raw) }
        if !identity.secrets.isEmpty { stored.sealedSecrets = try sealedSecrets(identity) }
        try tx.updateIdentity(stored)
    }

    /// The stored raw user info after a sign-in: what the provider says now over what it said before. Keys this
    /// sign-in does not carry are kept, as blanks never overwrite the other stored values: one provider's
    /// credential forms report different fields (Telegram's OpenID Connect `sub` and `phone_number` are not in a
    /// later Login Widget or Mini App sign-in, and must survive it). Anything but two JSON objects: the new text.
    static func mergedUserInfo(stored: String?, fresh: String) -> String {
        guard let stored, case .object(var merged)? = try? JSONParser.parse(Array(stored.utf8)),
              case .object(let now)? = try? JSONParser.parse(Array(fresh.utf8)) else { return fresh }
        for (key, value) in now { merged[key] = value }
        return JSONSerializer.string(.object(merged))
    }

    private func record(_ identity: VerifiedIdentity, localId: String, now: Int64) throws -> ProviderIdentity {
        ProviderIdentity(providerId: identity.providerId.rawValue, federatedId: identity.subject, localId: localId,
                         email: identity.email?.address.lowercased(), displayName: identity.displayName,
                         photoUrl: identity.photoUrl, screenName: identity.screenName, phoneNumber: identity.phoneNumber,
                         rawUserInfo: identity.rawUserInfo,
                         sealedSecrets: identity.secrets.isEmpty ? nil : try sealedSecrets(identity), linkedAt: now)
    }

    private func sealedSecrets(_ identity: VerifiedIdentity) throws -> [UInt8] {
        try sealer.seal(IdentityCoding.secretsBytes(identity.secrets), purpose: IdentityCoding.secretsPurpose)
    }
}

/// Reads the accounts one linking decision depends on.
enum LinkingSnapshotReader {
    static func read(_ credential: LinkingCredential, intent: LinkingIntent,
                     _ tx: any StoreTransaction) throws -> LinkingSnapshot {
        var snapshot = LinkingSnapshot()
        if case .federated(let identity) = credential,
           let owned = try tx.identity(providerId: identity.providerId.rawValue, federatedId: identity.subject) {
            snapshot.owner = try account(owned.localId, tx)
        }
        if case .link(let localId) = intent { snapshot.current = try account(localId, tx) }
        if let email = credential.email, let holder = try tx.user(email: email) {
            snapshot.emailHolder = try account(holder.localId, tx)
        }
        if case .phone(let number, _) = credential, let holder = try tx.user(phoneNumber: number) {
            snapshot.phoneHolder = try account(holder.localId, tx)
        }
        return snapshot
    }

    static func account(_ localId: String, _ tx: any StoreTransaction) throws -> LinkingSnapshot.Account? {
        guard let user = try tx.user(localId: localId) else { return nil }
        let keys = try tx.identities(localId: localId).map { LinkingSnapshot.ProviderKey($0.providerId, $0.federatedId) }
        return LinkingSnapshot.Account(localId: localId, email: user.email, emailVerified: user.emailVerified,
                                       hasPassword: user.password != nil, identities: keys)
    }
}
