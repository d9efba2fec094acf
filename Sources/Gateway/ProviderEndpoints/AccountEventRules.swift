import AuthCore
import ProviderKit

/// The one written rule per account event type, as a pure decision: what happens to an account when its
/// identity provider reports something about the user. Every provider's events go through here, so Apple's
/// `consent-revoked` and Facebook's deauthorize have the same consequences.
enum AccountEventRules {
    /// What the store holds for the event's identity: the user and every identity they have.
    struct Account: Sendable, Equatable {
        var user: UserRecord
        var identities: [ProviderIdentity]
    }

    /// The change to make.
    enum Plan: Sendable, Equatable {
        case nothing(AccountEventOutcome)
        /// Remove the identity (and what it stored) and end every session; `disable` when nothing else is left
        /// to sign in with.
        case unlink(localId: String, disable: Bool)
        /// Delete the identity and what the account copied from it (name and photo still equal to the
        /// provider's), and end every session; the user keeps their other sign-in methods.
        case deleteIdentity(localId: String)
        /// Delete the whole user: the identity was their last sign-in method.
        case deleteUser(localId: String)

        var outcome: AccountEventOutcome {
            switch self {
            case .nothing(let outcome): outcome
            case .unlink(_, let disable): disable ? .unlinkedAndDisabled : .unlinked
            case .deleteIdentity: .identityDeleted
            case .deleteUser: .userDeleted
            }
        }
    }

    /// - identity revoked: unlink and end sessions; a user left with no sign-in method is disabled, not deleted,
    ///   because revoking an app's access at the provider is not a request to erase the account (its data stays
    ///   for the user or an admin to decide), yet nobody must be left signed in to an account nobody can reach.
    /// - deletion requested: the provider's data goes in any case (the identity, and the name and photo the account
    ///   copied from it), and the whole user when no other sign-in method remains; otherwise the account stays,
    ///   reachable through the user's other methods.
    static func plan(_ event: AccountEvent, provider: ProviderID, account: Account?) -> Plan {
        guard let account else { return .nothing(.unknownSubject) }
        let othersRemain = hasOtherSignInMethod(account, besides: provider)
        switch event {
        case .identityRevoked:
            return .unlink(localId: account.user.localId, disable: !othersRemain)
        case .deletionRequested:
            return othersRemain ? .deleteIdentity(localId: account.user.localId) : .deleteUser(localId: account.user.localId)
        }
    }

    /// A password, a phone number, email-link sign-in or another provider's identity.
    static func hasOtherSignInMethod(_ account: Account, besides provider: ProviderID) -> Bool {
        let user = account.user
        return user.password != nil || user.phoneNumber != nil || user.emailLinkSignin
            || account.identities.contains { $0.providerId != provider.rawValue }
    }

    static func subject(of event: AccountEvent) -> String {
        switch event {
        case .identityRevoked(let subject), .deletionRequested(let subject): subject
        }
    }
}
