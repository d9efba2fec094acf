import AuthCore

/// Firebase's account-linking rules as one pure function: snapshot + identity + intent + policy → decision.
public enum LinkingEngine {
    public static func decide(
        identity: VerifiedIdentity, intent: LinkingIntent, snapshot: LinkingSnapshot, policy: LinkingPolicy
    ) -> LinkingDecision {
        let key = LinkingSnapshot.ProviderKey(identity.providerId.rawValue, identity.subject)
        switch intent {
        case .link(let localId):
            if let owner = snapshot.owner {
                return owner.localId == localId ? .alreadyLinked(localId: localId) : .refuse(.federatedUserIdAlreadyLinked)
            }
            guard let current = snapshot.current, current.localId == localId else { return .refuse(.userNotFound) }
            // One identity per provider per user: a second Apple ID on the same account is refused.
            if current.identities.contains(where: { $0.providerId == key.providerId && $0 != key }) {
                return .refuse(.providerAlreadyLinked)
            }
            if policy.oneAccountPerEmail, let holder = snapshot.emailHolder, holder.localId != localId {
                return .refuse(.emailExists)
            }
            return .link(localId: localId, takeOverUnverifiedEmail: false)
        case .signIn(let autoCreate):
            if let owner = snapshot.owner { return .signIn(localId: owner.localId) }
            if policy.oneAccountPerEmail, let email = identity.email, let holder = snapshot.emailHolder,
               holder.email == email.address.lowercased() {
                guard email.isTrusted else {
                    let verified = holder.identities.map(\.providerId)
                    return .needConfirmation(localId: holder.localId, verifiedProviders: verified)
                }
                if holder.identities.contains(where: { $0.providerId == key.providerId }) {
                    // The account already has another identity of this provider: never attach a second one, and
                    // never create a second account with its email.
                    return .refuse(.emailExists)
                }
                return .link(localId: holder.localId, takeOverUnverifiedEmail: !holder.emailVerified)
            }
            // Reauthentication with an identity nobody has: EMAIL_NOT_FOUND, which SDKs turn into "user mismatch".
            // (USER_NOT_FOUND would make the JS SDK sign the current user out.)
            return autoCreate ? .createUser : .refuse(.emailNotFound)
        }
    }
}
