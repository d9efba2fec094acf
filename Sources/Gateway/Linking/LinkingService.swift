import AuthCore
import Linking
import Storage

/// Applies the linking engine's decision in one store transaction.
///
/// The snapshot is read inside the same write transaction as the changes, and the store's unique constraints
/// ((providerId, federatedId), (localId, providerId), email) are the final arbiter: when a concurrent request
/// wins a race (possible with several instances on PostgreSQL), the violation rolls the transaction back and
/// the decision is taken again on a fresh snapshot — never a duplicate user or a half-linked account.
struct LinkingService: Sendable {
    let store: any UserStore
    let sealer: Sealer
    let time: any TimeSource

    enum Outcome: Sendable {
        /// Signed in, created, linked or re-linked: a session is issued for `user`.
        case session(user: UserRecord, identities: [ProviderIdentity], isNewUser: Bool)
        case needConfirmation(localId: String, verifiedProviders: [String])
        /// A conflict Firebase may report as 200 + `errorMessage` (`FEDERATED_USER_ID_ALREADY_LINKED`, `EMAIL_EXISTS`).
        case conflict(AuthError.Code)
    }

    func resolve(_ identity: VerifiedIdentity, intent: LinkingIntent, policy: LinkingPolicy) async throws -> Outcome {
        // Provider profile values are the provider's (or, for Apple's first-sign-in name, the client's): stored
        // within the same bounds as values a client sets directly.
        var bounded = identity
        bounded.displayName = ProfileLimits.clip(identity.displayName, limit: ProfileLimits.displayName)
        bounded.photoUrl = ProfileLimits.clip(identity.photoUrl, limit: ProfileLimits.photoUrl)
        bounded.screenName = ProfileLimits.clip(identity.screenName, limit: ProfileLimits.displayName)
        let identity = bounded
        var attempts = 0
        while true {
            attempts += 1
            do {
                return try await store.write { [self] tx in try decideAndApply(identity, intent: intent, policy: policy, tx) }
            } catch StoreError.uniqueViolation(let constraint) where attempts < 5 {
                _ = constraint  // lost a race: decide again on a fresh snapshot
            } catch StoreError.uniqueViolation(.userProvider) {
                throw AuthError(.providerAlreadyLinked)
            } catch StoreError.uniqueViolation(.identity) {
                return .conflict(.federatedUserIdAlreadyLinked)
            } catch StoreError.uniqueViolation(.email) {
                return .conflict(.emailExists)
            }
        }
    }

    private func decideAndApply(_ identity: VerifiedIdentity, intent: LinkingIntent, policy: LinkingPolicy,
                                _ tx: any StoreTransaction) throws -> Outcome {
        let snapshot = try LinkingSnapshotReader.read(identity, intent: intent, tx)
        let now = time.nowMilliseconds
        switch LinkingEngine.decide(identity: identity, intent: intent, snapshot: snapshot, policy: policy) {
        case .signIn(let localId):
            guard var user = try tx.user(localId: localId) else { throw AuthError.userNotFound }
            guard !user.disabled else { throw AuthError.userDisabled }
            try refreshIdentity(identity, of: localId, tx)
            user.lastLoginAt = now
            user.lastRefreshAt = now
            try tx.updateUser(user)
            return .session(user: user, identities: try tx.identities(localId: localId), isNewUser: false)
        case .createUser:
            var user = UserRecord(localId: UserIDs.generate(), displayName: identity.displayName,
                                  photoUrl: identity.photoUrl, validSince: now / 1000, createdAt: now, lastLoginAt: now,
                                  lastRefreshAt: now)
            if policy.oneAccountPerEmail, let email = identity.email {
                user.email = email.address.lowercased()
                user.emailVerified = email.isVerified
            }
            try tx.insertUser(user)
            try tx.insertIdentity(record(identity, localId: user.localId, now: now))
            return .session(user: user, identities: try tx.identities(localId: user.localId), isNewUser: true)
        case .link(let localId, let takeOver):
            guard var user = try tx.user(localId: localId) else { throw AuthError.userNotFound }
            guard !user.disabled else { throw AuthError.userDisabled }
            Self.merge(identity, into: &user, takeOver: takeOver, policy: policy, now: now)
            if takeOver {
                // The address was never proven by whoever registered it: a provider that vouches for it now
                // takes the account over. Everything that could belong to someone else goes — the password,
                // the phone number and every identity linked so far (none of them vouched for the email, or it
                // would be verified) — and sessions made with them are revoked.
                user.password = nil
                user.phoneNumber = nil
                try SessionRevocation.revoke(.everything, &user, nowMilliseconds: now, in: tx)
                for linked in try tx.identities(localId: localId) {
                    _ = try tx.deleteIdentity(localId: localId, providerId: linked.providerId)
                }
            }
            try tx.updateUser(user)
            try tx.insertIdentity(record(identity, localId: localId, now: now))
            return .session(user: user, identities: try tx.identities(localId: localId), isNewUser: false)
        case .alreadyLinked(let localId):
            guard var user = try tx.user(localId: localId) else { throw AuthError.userNotFound }
            try refreshIdentity(identity, of: localId, tx)
            user.lastLoginAt = now
            user.lastRefreshAt = now
            try tx.updateUser(user)
            return .session(user: user, identities: try tx.identities(localId: localId), isNewUser: false)
        case .needConfirmation(let localId, let providers):
            return .needConfirmation(localId: localId, verifiedProviders: providers)
        case .refuse(let code) where code == .federatedUserIdAlreadyLinked || code == .emailExists:
            return .conflict(code)
        case .refuse(let code):
            throw AuthError(code)
        }
    }

    /// Profile rules when an identity joins an existing account: a missing top-level email is filled (under
    /// one-account-per-email), a vouched-for matching email becomes verified, and on a takeover the profile is
    /// replaced only by non-empty provider values.
    static func merge(_ identity: VerifiedIdentity, into user: inout UserRecord, takeOver: Bool, policy: LinkingPolicy,
                      now: Int64) {
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
        user.lastLoginAt = now
        user.lastRefreshAt = now
    }

    /// Keeps the stored provider profile current on each sign-in; blanks never overwrite values.
    private func refreshIdentity(_ identity: VerifiedIdentity, of localId: String, _ tx: any StoreTransaction) throws {
        guard var stored = try tx.identity(providerId: identity.providerId.rawValue, federatedId: identity.subject),
              stored.localId == localId else { return }
        if let email = identity.email?.address.lowercased() { stored.email = email }
        if let name = identity.displayName, !name.isEmpty { stored.displayName = name }
        if let photo = identity.photoUrl, !photo.isEmpty { stored.photoUrl = photo }
        if let screen = identity.screenName, !screen.isEmpty { stored.screenName = screen }
        if let raw = identity.rawUserInfo { stored.rawUserInfo = raw }
        if !identity.secrets.isEmpty { stored.sealedSecrets = try sealedSecrets(identity) }
        try tx.updateIdentity(stored)
    }

    private func record(_ identity: VerifiedIdentity, localId: String, now: Int64) throws -> ProviderIdentity {
        ProviderIdentity(providerId: identity.providerId.rawValue, federatedId: identity.subject, localId: localId,
                         email: identity.email?.address.lowercased(), displayName: identity.displayName,
                         photoUrl: identity.photoUrl, screenName: identity.screenName,
                         rawUserInfo: identity.rawUserInfo,
                         sealedSecrets: identity.secrets.isEmpty ? nil : try sealedSecrets(identity), linkedAt: now)
    }

    private func sealedSecrets(_ identity: VerifiedIdentity) throws -> [UInt8] {
        try sealer.seal(IdentityCoding.secretsBytes(identity.secrets), purpose: IdentityCoding.secretsPurpose)
    }
}

/// Reads the accounts one linking decision depends on.
enum LinkingSnapshotReader {
    static func read(_ identity: VerifiedIdentity, intent: LinkingIntent, _ tx: any StoreTransaction) throws -> LinkingSnapshot {
        var snapshot = LinkingSnapshot()
        if let owned = try tx.identity(providerId: identity.providerId.rawValue, federatedId: identity.subject) {
            snapshot.owner = try account(owned.localId, tx)
        }
        if case .link(let localId) = intent { snapshot.current = try account(localId, tx) }
        if let email = identity.email?.address.lowercased(), let holder = try tx.user(email: email) {
            snapshot.emailHolder = try account(holder.localId, tx)
        }
        return snapshot
    }

    static func account(_ localId: String, _ tx: any StoreTransaction) throws -> LinkingSnapshot.Account? {
        guard let user = try tx.user(localId: localId) else { return nil }
        let keys = try tx.identities(localId: localId).map { LinkingSnapshot.ProviderKey($0.providerId, $0.federatedId) }
        return LinkingSnapshot.Account(localId: localId, email: user.email, emailVerified: user.emailVerified, identities: keys)
    }
}
