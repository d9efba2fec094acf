import AuthCore
import Crypto
import Storage
import WireFormats

/// `accounts:batchCreate` (firebase-admin's `import_users`) and the legacy `uploadAccount`: up to 1000 users with
/// their password hashes, identities, claims and timestamps, in one transaction.
///
/// Checks that concern the whole request answer 400 before anything is written (no users, more than 1000, a hash
/// configuration Firebase would refuse, the same `localId`, email (with `sanityCheck`) or identity twice); checks
/// on one user answer 200 with that user in `error[]` (`{"index","message"}`, Firebase's wording) and the others
/// imported. Imported hashes are verified at sign-in and replaced with the gateway's own hash after the first
/// success (`ImportedPasswordCredential`).
enum BatchCreate {
    static let maxUsers = 1000

    struct Request: Sendable {
        let users: [JSONObject]
        let hash: ForeignHashParameters?
        let allowOverwrite: Bool
        let sanityCheck: Bool
        let tenantId: String?

        init(_ body: RequestBody) throws {
            users = try body.objects("users") ?? []
            guard !users.isEmpty else { throw AuthError(.missingUserAccount) }
            guard users.count <= BatchCreate.maxUsers else { throw AuthError(.maximumUserCountExceeded) }
            hash = try ImportHashOptions.parse(body)
            allowOverwrite = try body.bool("allowOverwrite") ?? false
            sanityCheck = try body.bool("sanityCheck") ?? false
            tenantId = try body.string("tenantId").flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let request = try Request(context.body)
        let now = services.time.nowMilliseconds
        let template = request.hash.map(ImportedPasswordCredential.Template.init)
        var failures: [(Int, String)] = []
        var accounts: [(Int, ImportedAccount)] = []
        for (index, object) in request.users.enumerated() {
            if request.tenantId != nil {
                failures.append((index, "tenantId is not supported by this gateway yet: the user was not imported"))
                continue
            }
            do {
                accounts.append((index, try ImportedAccount(object, hash: template, now: now)))
            } catch {
                failures.append((index, error.message))
            }
        }
        try checkDuplicates(accounts.map(\.1), request)
        let existing: AccountImportWriter.Existing = request.allowOverwrite ? .overwrite : .refuse
        let checked = accounts
        let outcome = try await write(checked, existing: existing, services)
        failures += outcome.failures
        let errors = failures.sorted { $0.0 < $1.0 }.map { failure -> JSONValue in
            ["index": .int(Int64(failure.0)), "message": .string(failure.1)]
        }
        return .json(["kind": "identitytoolkit#UploadAccountResponse", "error": .array(errors)])
    }

    /// Writes the batch in one transaction. An overwrite that loses a race for a unique value rolls the whole
    /// transaction back (see `AccountImportWriter`), and the batch is decided again on what is stored then.
    private static func write(_ accounts: [(Int, ImportedAccount)], existing: AccountImportWriter.Existing,
                              _ services: GatewayServices) async throws -> AccountImportWriter.Outcome {
        var attempt = 1
        while true {
            do {
                return try await services.store.write { tx in try AccountImportWriter.write(accounts, existing: existing, tx) }
            } catch StoreError.uniqueViolation where attempt < 3 {
                attempt += 1
            }
        }
    }

    /// Whole-request refusals for values repeated inside the batch, as the Firebase Auth Emulator answers them.
    static func checkDuplicates(_ accounts: [ImportedAccount], _ request: Request) throws {
        var localIds = Set<String>()
        var emails = Set<String>()
        var rawIds = Set<String>()
        for account in accounts {
            if !request.allowOverwrite, !localIds.insert(account.user.localId).inserted {
                throw AuthError(.duplicateLocalId, String(account.user.localId.prefix(128)))
            }
            if request.sanityCheck, let email = account.user.email, !emails.insert(email).inserted {
                throw AuthError(.duplicateEmail, email)
            }
            for identity in account.identities
            where !rawIds.insert("\(identity.providerId)\u{0}\(identity.federatedId)").inserted {
                throw AuthError(.duplicateRawId, "Provider id(\(identity.providerId)), Raw id(\(identity.federatedId))")
            }
        }
    }
}
