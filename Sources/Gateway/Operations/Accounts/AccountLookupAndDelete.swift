import AuthCore
import Storage
import WireFormats

/// `accounts:lookup` and `accounts:delete` (and their admin routes), parsed before any I/O: with an ID token they
/// act on its user; an admin without one names users by `localId` (and, for lookup, by email, phone or
/// federated id).
enum AccountTarget: Sendable {
    case user(idToken: String?)
    case admin

    init(_ body: RequestBody, caller: Caller) throws {
        self = caller.actsAsAdmin(body) ? .admin : .user(idToken: try body.string("idToken"))
    }
}

enum AccountHandlers {
    static func lookup(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        switch try AccountTarget(context.body, caller: context.caller) {
        case .admin:
            return try await adminLookup(services, context)
        case .user(let idToken):
            let session = try await services.sessions.authenticate(idToken: idToken)
            return .json(["kind": "identitytoolkit#GetAccountInfoResponse",
                          "users": [.object(UserInfoJSON.render(session.user, identities: session.identities))]])
        }
    }

    static func adminLookup(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let query = try AdminLookupQuery(context.body)
        let found = try await services.store.read { tx in try query.run(tx) }
        var response: JSONObject = ["kind": "identitytoolkit#GetAccountInfoResponse"]
        // `users` is omitted when nothing matched (firebase-admin relies on that).
        if !found.isEmpty {
            response["users"] = .array(found.map { .object(UserInfoJSON.render($0.0, identities: $0.1)) })
        }
        return .json(response)
    }

    static func delete(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        switch try AccountTarget(context.body, caller: context.caller) {
        case .admin:
            return try await adminDelete(services, context)
        case .user(let idToken):
            let session = try await services.sessions.authenticate(idToken: idToken)
            try RecentSignIn.require(session, windowSeconds: services.email.recentSignInSeconds,
                                     now: services.time.nowSeconds)
            _ = try await services.store.write { tx in try ProviderRevocations.deleteUser(session.user.localId, services, tx) }
            return .json(["kind": "identitytoolkit#DeleteAccountResponse"])
        }
    }

    static func adminDelete(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        guard let localId = try context.body.string("localId"), !localId.isEmpty else { throw AuthError(.missingLocalId) }
        let deleted = try await services.store.write { tx in try ProviderRevocations.deleteUser(localId, services, tx) }
        guard deleted else { throw AuthError.userNotFound }
        return .json(["kind": "identitytoolkit#DeleteAccountResponse"])
    }
}

/// An admin lookup by any of `localId[]`, `email[]`, `phoneNumber[]`, `federatedUserId[]`; results are
/// de-duplicated, in the order asked.
struct AdminLookupQuery: Sendable {
    var localIds: [String]
    var emails: [String]
    var phones: [String]
    var federated: [(providerId: String, rawId: String)]

    init(_ body: RequestBody) throws {
        localIds = try body.strings("localId") ?? []
        emails = (try body.strings("email") ?? []).map { $0.lowercased() }
        phones = try body.strings("phoneNumber") ?? []
        federated = try (body.objects("federatedUserId") ?? []).compactMap { item in
            guard let provider = item["providerId"]?.stringValue, let rawId = item["rawId"]?.stringValue else { return nil }
            return (provider, rawId)
        }
    }

    func run(_ tx: any StoreTransaction) throws -> [(UserRecord, [ProviderIdentity])] {
        var users: [UserRecord] = []
        for id in localIds { if let u = try tx.user(localId: id) { users.append(u) } }
        for email in emails { if let u = try tx.user(email: email) { users.append(u) } }
        for phone in phones { if let u = try tx.user(phoneNumber: phone) { users.append(u) } }
        for (provider, rawId) in federated {
            if let identity = try tx.identity(providerId: provider, federatedId: rawId),
               let u = try tx.user(localId: identity.localId) { users.append(u) }
        }
        var seen = Set<String>()
        return try users.filter { seen.insert($0.localId).inserted }.map { ($0, try tx.identities(localId: $0.localId)) }
    }
}
