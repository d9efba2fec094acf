import AuthCore
import Storage
import WireFormats

/// `accounts:batchDelete` (firebase-admin's `delete_users`): deletes up to 1000 accounts in one transaction.
/// Unknown ids count as deleted (Firebase ignores them); without `force` an enabled account is not deleted and
/// is reported with Firebase's per-item `NOT_DISABLED` error. Each deletion is the same as a single delete
/// (identities, refresh tokens, and a revocation at the provider queued where the provider supports it).
enum BatchDelete {
    static let maxAccounts = 1000
    static let notDisabled = "NOT_DISABLED : Disable the account before batch deletion."

    struct Request: Sendable {
        let localIds: [String]
        let force: Bool

        init(_ body: RequestBody) throws {
            localIds = try body.strings("localIds") ?? []
            guard (1...BatchDelete.maxAccounts).contains(localIds.count) else {
                throw AuthError(.localIdListExceedsLimit)
            }
            force = try body.bool("force") ?? false
        }
    }

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let request = try Request(context.body)
        let errors = try await services.store.write { tx -> [JSONValue] in
            var errors: [JSONValue] = []
            var seen = Set<String>()
            for (index, localId) in request.localIds.enumerated() where seen.insert(localId).inserted {
                guard let user = try tx.user(localId: localId) else { continue }
                guard request.force || user.disabled else {
                    errors.append(["index": .int(Int64(index)), "localId": .string(localId), "message": .string(notDisabled)])
                    continue
                }
                _ = try ProviderRevocations.deleteUser(localId, services, tx)
            }
            return errors
        }
        return .json(errors.isEmpty ? [:] : ["errors": .array(errors)])
    }
}
