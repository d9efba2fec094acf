import AuthCore
import Storage

/// Writes checked accounts inside one store transaction, each all or nothing: an account whose email, phone
/// number or identity belongs to another account is refused with Firebase's per-user message and leaves nothing
/// behind, while the others are written.
///
/// What happens to an account whose `localId` is already stored is the caller's choice: the CLI skips it (so an
/// interrupted import can simply be run again), the API refuses it unless `allowOverwrite`, as Firebase does.
enum AccountImportWriter {
    enum Existing: Sendable {
        case skip
        case refuse
        case overwrite
    }

    struct Outcome: Sendable, Equatable {
        var imported = 0
        var skipped = 0
        /// `(position in the batch, message)`.
        var failures: [(Int, String)] = []

        static func == (a: Outcome, b: Outcome) -> Bool {
            a.imported == b.imported && a.skipped == b.skipped && a.failures.map(\.0) == b.failures.map(\.0)
                && a.failures.map(\.1) == b.failures.map(\.1)
        }
    }

    static let existingLocalId = "localId belongs to an existing account - can not overwrite."
    static let emailInUse = "email exists in other account in database"
    static let phoneInUse = "phone number exists in other account in database"
    static let rawIdInUse = "raw id exists in other account in database"

    static func write(_ accounts: [(Int, ImportedAccount)], existing: Existing, _ tx: any StoreTransaction) throws -> Outcome {
        var outcome = Outcome()
        for (position, account) in accounts {
            if try tx.user(localId: account.user.localId) != nil {
                switch existing {
                case .skip:
                    outcome.skipped += 1
                    continue
                case .refuse:
                    outcome.failures.append((position, existingLocalId))
                    continue
                case .overwrite:
                    _ = try tx.deleteUser(localId: account.user.localId)
                }
            }
            if let message = try insert(account, tx) {
                outcome.failures.append((position, message))
            } else {
                outcome.imported += 1
            }
        }
        return outcome
    }

    /// Inserts one account with its identities; on a conflict removes what it wrote and returns the message.
    private static func insert(_ account: ImportedAccount, _ tx: any StoreTransaction) throws -> String? {
        for identity in account.identities
        where try tx.identity(providerId: identity.providerId, federatedId: identity.federatedId) != nil {
            return rawIdInUse
        }
        do {
            try tx.insertUser(account.user)
        } catch StoreError.uniqueViolation(.email) {
            return emailInUse
        } catch StoreError.uniqueViolation(.phoneNumber) {
            return phoneInUse
        } catch StoreError.uniqueViolation(.localId) {
            return existingLocalId
        }
        do {
            for identity in account.identities { try tx.insertIdentity(identity) }
        } catch StoreError.uniqueViolation(.identity), StoreError.uniqueViolation(.userProvider) {
            _ = try tx.deleteUser(localId: account.user.localId)
            return rawIdInUse
        }
        return nil
    }
}
