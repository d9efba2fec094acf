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
                    // The stored account goes only once its replacement is known to fit: a replacement whose
                    // email, phone number or identity belongs to another account is refused and the stored one
                    // stays, as the Firebase Auth Emulator answers it.
                    if let message = try conflictWithOtherAccounts(account, tx) {
                        outcome.failures.append((position, message))
                        continue
                    }
                    _ = try tx.deleteUser(localId: account.user.localId)
                    try insertReplacement(account, tx)
                    outcome.imported += 1
                    continue
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

    /// The per-user message for a value of `account` that another stored account (another `localId`) holds.
    private static func conflictWithOtherAccounts(_ account: ImportedAccount, _ tx: any StoreTransaction) throws -> String? {
        let localId = account.user.localId
        if let email = account.user.email, let owner = try tx.user(email: email), owner.localId != localId {
            return emailInUse
        }
        if let phone = account.user.phoneNumber, let owner = try tx.user(phoneNumber: phone), owner.localId != localId {
            return phoneInUse
        }
        for identity in account.identities {
            if let owner = try tx.identity(providerId: identity.providerId, federatedId: identity.federatedId),
               owner.localId != localId {
                return rawIdInUse
            }
        }
        return nil
    }

    /// Inserts the account that replaces a deleted one. The checks before the delete make a conflict here
    /// possible only when a concurrent writer (another instance on PostgreSQL) took a value in between; the
    /// violation is then thrown, so the whole transaction rolls back and the stored account is never lost.
    private static func insertReplacement(_ account: ImportedAccount, _ tx: any StoreTransaction) throws {
        try tx.insertUser(account.user)
        for identity in account.identities { try tx.insertIdentity(identity) }
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
