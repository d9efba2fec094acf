import AuthCore

/// Firebase's account-linking rules as one pure function: credential + intent + snapshot + policy → decision.
public enum LinkingEngine {
    /// - Parameter returnIdpCredential: the client asked for the credential-already-in-use answer (the pending
    ///   credential in a 200) instead of a plain error; only federated conflicts are answered that way.
    public static func decide(_ credential: LinkingCredential, intent: LinkingIntent, snapshot: LinkingSnapshot,
                              policy: LinkingPolicy, returnIdpCredential: Bool = false) -> LinkingDecision {
        switch credential {
        case .federated(let identity):
            return federated(identity, intent: intent, snapshot: snapshot, policy: policy,
                             answer: returnIdpCredential ? .errorMessageWithPendingCredential : .error)
        case .emailLink:
            return emailLink(credential, intent: intent, snapshot: snapshot)
        case .password:
            return password(intent: intent, snapshot: snapshot)
        case .emailChange:
            guard case .link(let localId) = intent else { return .conflict(.init(.userNotFound)) }
            return linkByEmail(localId, snapshot: snapshot)
        case .phone(_, let withProof):
            return phone(intent: intent, snapshot: snapshot, answer: withProof ? .errorMessageWithPendingCredential : .error)
        }
    }

    static func federated(_ identity: VerifiedIdentity, intent: LinkingIntent, snapshot: LinkingSnapshot,
                          policy: LinkingPolicy, answer: LinkingConflict.Answer) -> LinkingDecision {
        let key = LinkingSnapshot.ProviderKey(identity.providerId.rawValue, identity.subject)
        switch intent {
        case .link(let localId):
            if let owner = snapshot.owner {
                return owner.localId == localId ? .alreadyLinked(localId: localId)
                                                : .conflict(.init(.federatedUserIdAlreadyLinked, answer: answer))
            }
            guard let current = snapshot.current, current.localId == localId else { return .conflict(.init(.userNotFound)) }
            // One identity per provider per user: a second Apple ID on the same account is refused.
            if current.identities.contains(where: { $0.providerId == key.providerId && $0 != key }) {
                return .conflict(.init(.providerAlreadyLinked))
            }
            if policy.oneAccountPerEmail, let holder = snapshot.emailHolder, holder.localId != localId {
                return .conflict(.init(.emailExists, answer: answer))
            }
            return .link(localId: localId, takeOverUnverifiedEmail: false)
        case .signIn(let autoCreate):
            if let owner = snapshot.owner { return .signIn(localId: owner.localId) }
            if policy.oneAccountPerEmail, let email = identity.email, let holder = snapshot.emailHolder,
               holder.email == email.address.lowercased() {
                guard email.isTrusted else {
                    return .needConfirmation(localId: holder.localId, verifiedProviders: holder.identities.map(\.providerId))
                }
                if holder.identities.contains(where: { $0.providerId == key.providerId }) {
                    // The account already has another identity of this provider: never attach a second one, and
                    // never create a second account with its email.
                    return .conflict(.init(.emailExists, answer: answer))
                }
                return .link(localId: holder.localId, takeOverUnverifiedEmail: !holder.emailVerified)
            }
            // Reauthentication with an identity nobody has: EMAIL_NOT_FOUND, which SDKs turn into "user mismatch".
            // (USER_NOT_FOUND would make the JS SDK sign the current user out.)
            return autoCreate ? .createUser : .conflict(.init(.emailNotFound))
        }
    }

    /// Opening the link proves the mailbox: it signs in the address's account (taking it over when whoever
    /// registered the address never proved it), creates one, or adds the address to the signed-in user.
    static func emailLink(_ credential: LinkingCredential, intent: LinkingIntent, snapshot: LinkingSnapshot) -> LinkingDecision {
        switch intent {
        case .link(let localId):
            guard let current = snapshot.current, current.localId == localId else { return .conflict(.init(.userNotFound)) }
            if let holder = snapshot.emailHolder, holder.localId != localId { return .conflict(.init(.emailExists)) }
            return .link(localId: localId, takeOverUnverifiedEmail: false)
        case .signIn:
            guard let holder = snapshot.emailHolder else { return .createUser }
            return holder.emailVerified ? .signIn(localId: holder.localId)
                                        : .link(localId: holder.localId, takeOverUnverifiedEmail: true)
        }
    }

    /// A password account for a new address; with an ID token, the upgrade of the signed-in user, who must not
    /// have a password yet (`accounts:update` changes passwords).
    static func password(intent: LinkingIntent, snapshot: LinkingSnapshot) -> LinkingDecision {
        switch intent {
        case .signIn:
            return snapshot.emailHolder == nil ? .createUser : .conflict(.init(.emailExists))
        case .link(let localId):
            guard let current = snapshot.current, current.localId == localId else { return .conflict(.init(.userNotFound)) }
            if current.hasPassword { return .conflict(.init(.providerAlreadyLinked)) }
            if let holder = snapshot.emailHolder, holder.localId != localId { return .conflict(.init(.emailExists)) }
            return .link(localId: localId, takeOverUnverifiedEmail: false)
        }
    }

    /// A proven phone number signs in its account or creates one; with an ID token it becomes the signed-in user's
    /// number (replacing an older one: Firebase's `updatePhoneNumber` is this call), unless another account has it.
    /// Reauthentication (`autoCreate: false`) with a number nobody has is `USER_NOT_FOUND`, which the JS SDK's
    /// phone error map turns into a user mismatch.
    static func phone(intent: LinkingIntent, snapshot: LinkingSnapshot, answer: LinkingConflict.Answer) -> LinkingDecision {
        switch intent {
        case .signIn(let autoCreate):
            if let holder = snapshot.phoneHolder { return .signIn(localId: holder.localId) }
            return autoCreate ? .createUser : .conflict(.init(.userNotFound))
        case .link(let localId):
            if let holder = snapshot.phoneHolder {
                return holder.localId == localId ? .alreadyLinked(localId: localId)
                                                 : .conflict(.init(.phoneNumberExists, answer: answer))
            }
            guard let current = snapshot.current, current.localId == localId else { return .conflict(.init(.userNotFound)) }
            return .link(localId: localId, takeOverUnverifiedEmail: false)
        }
    }

    /// A new address for the signed-in user: refused while another account holds it.
    static func linkByEmail(_ localId: String, snapshot: LinkingSnapshot) -> LinkingDecision {
        guard let current = snapshot.current, current.localId == localId else { return .conflict(.init(.userNotFound)) }
        if let holder = snapshot.emailHolder, holder.localId != localId { return .conflict(.init(.emailExists)) }
        return .link(localId: localId, takeOverUnverifiedEmail: false)
    }
}
