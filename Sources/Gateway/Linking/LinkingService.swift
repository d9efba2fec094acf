import AuthCore
import Linking
import Storage

/// Every account merge: federated sign-in and linking, email-link sign-in, password sign-up and the upgrade of
/// an anonymous user, email changes. The engine decides; `LinkingApplier` applies the decision in the same
/// transaction that read the snapshot.
///
/// The store's unique constraints ((providerId, federatedId), (localId, providerId), email) are the final
/// arbiter: when a concurrent request wins a race (possible with several instances on PostgreSQL), the
/// violation rolls the transaction back and the decision is taken again on a fresh snapshot — never a
/// duplicate user or a half-linked account.
struct LinkingService: Sendable {
    let store: any UserStore
    let sealer: Sealer
    let time: any TimeSource

    /// One merge request: the credential, what the caller asks for, and what the applier needs besides.
    struct Request: Sendable {
        var credential: LinkingCredential
        var intent: LinkingIntent
        /// The client asked for the credential-already-in-use answer (`returnIdpCredential`).
        var returnIdpCredential = false
        /// For `.password`: the new password's hash, and the display name given with it.
        var password: PasswordCredential?
        var displayName: String?
    }

    enum Outcome: Sendable {
        /// Signed in, created, linked or re-linked: a session is issued for `user`.
        case session(user: UserRecord, identities: [ProviderIdentity], isNewUser: Bool)
        case needConfirmation(localId: String, verifiedProviders: [String])
        /// A conflict the engine answers in the body (200 with `errorMessage` and a pending credential).
        case conflictInBody(AuthError.Code)
    }

    /// Decides and applies in a transaction of its own, deciding again when a race is lost. `first` runs in the
    /// same transaction before the snapshot is read (consuming a one-time code the credential came with), so the
    /// code is spent exactly when the merge commits.
    func resolve(_ request: Request, policy: LinkingPolicy,
                 first: @escaping @Sendable (any StoreTransaction) throws -> Void = { _ in }) async throws -> Outcome {
        let request = try Self.bounded(request)
        var attempts = 0
        while true {
            attempts += 1
            do {
                return try await store.write { [self] tx in
                    try first(tx)
                    return try applier.decideAndApply(request, policy: policy, tx)
                }
            } catch StoreError.uniqueViolation(let constraint) where attempts < 5 {
                _ = constraint  // lost a race: decide again on a fresh snapshot
            } catch StoreError.uniqueViolation(let constraint) {
                return try Self.outcome(ofLostRace: constraint, request)
            }
        }
    }

    var applier: LinkingApplier { LinkingApplier(sealer: sealer, time: time) }

    /// After repeated lost races the constraint itself says who won: the answer the engine would give now.
    static func outcome(ofLostRace constraint: UniqueConstraint, _ request: Request) throws -> Outcome {
        let answer: LinkingConflict.Answer = request.returnIdpCredential ? .errorMessageWithPendingCredential : .error
        let conflict: LinkingConflict
        switch constraint {
        case .userProvider: conflict = LinkingConflict(.providerAlreadyLinked)
        case .identity: conflict = LinkingConflict(.federatedUserIdAlreadyLinked, answer: answer)
        case .email:
            if case .federated = request.credential { conflict = LinkingConflict(.emailExists, answer: answer) }
            else { conflict = LinkingConflict(.emailExists) }
        case .phoneNumber:
            guard case .phone(_, let withProof) = request.credential else { throw StoreError.uniqueViolation(constraint) }
            conflict = LinkingConflict(.phoneNumberExists, answer: withProof ? .errorMessageWithPendingCredential : .error)
        default: throw StoreError.uniqueViolation(constraint)
        }
        return try LinkingApplier.answer(conflict)
    }

    /// Provider profile values are the provider's (or, for Apple's first-sign-in name, the client's): stored
    /// within the same bounds as values a client sets directly.
    /// The identity's key must be storable the same way on every backend: a subject and provider id of 1 to 255
    /// characters without NUL (a provider that sends more is refused, never truncated: a cut subject could name
    /// another user).
    static func bounded(_ request: Request) throws -> Request {
        guard case .federated(var identity) = request.credential else { return request }
        for key in [identity.subject, identity.providerId.rawValue]
        where key.isEmpty || key.count > ProfileLimits.federatedKey || key.utf8.contains(0) {
            throw AuthError(.invalidIdpResponse, "The identity provider's user id is empty, longer than \(ProfileLimits.federatedKey) characters or not text")
        }
        identity.displayName = ProfileLimits.clip(identity.displayName, limit: ProfileLimits.displayName)
        identity.photoUrl = ProfileLimits.clip(identity.photoUrl, limit: ProfileLimits.photoUrl)
        identity.screenName = ProfileLimits.clip(identity.screenName, limit: ProfileLimits.displayName)
        var request = request
        request.credential = .federated(identity)
        return request
    }
}
