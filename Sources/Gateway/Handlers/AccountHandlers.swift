import AuthCore
import Storage
import WireFormats

/// `accounts:lookup` and `accounts:delete` for end users (by ID token) and admins (by localId).
enum AccountHandlers {
    static func lookup(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        if context.caller.isAdmin && !context.body.has("idToken") {
            return try await adminLookup(services, context)
        }
        let session = try await services.sessions.authenticate(idToken: context.body.string("idToken"))
        return .json(["kind": "identitytoolkit#GetAccountInfoResponse",
                      "users": [.object(UserInfoJSON.render(session.user, identities: session.identities))]])
    }

    /// Admin lookup by any of `localId[]`, `email[]`, `phoneNumber[]`, `federatedUserId[]`. Results are
    /// de-duplicated; `users` is omitted when nothing matched (firebase-admin relies on that).
    static func adminLookup(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        let localIds = try body.strings("localId") ?? []
        let emails = (try body.strings("email") ?? []).map { $0.lowercased() }
        let phones = try body.strings("phoneNumber") ?? []
        let federated: [(String, String)] = try (body.objects("federatedUserId") ?? []).compactMap { item in
            guard let provider = item["providerId"]?.stringValue, let rawId = item["rawId"]?.stringValue else { return nil }
            return (provider, rawId)
        }
        let found = try await services.store.read { tx -> [(UserRecord, [ProviderIdentity])] in
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
        var response: JSONObject = ["kind": "identitytoolkit#GetAccountInfoResponse"]
        if !found.isEmpty {
            response["users"] = .array(found.map { .object(UserInfoJSON.render($0.0, identities: $0.1)) })
        }
        return .json(response)
    }

    static func delete(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        if context.caller.isAdmin && !context.body.has("idToken") {
            return try await adminDelete(services, context)
        }
        let session = try await services.sessions.authenticate(idToken: context.body.string("idToken"))
        try RecentSignIn.require(session, windowSeconds: services.email.recentSignInSeconds,
                                 now: services.time.nowSeconds)
        _ = try await services.store.write { tx in try ProviderRevocations.deleteUser(session.user.localId, services, tx) }
        return .json(["kind": "identitytoolkit#DeleteAccountResponse"])
    }

    static func adminDelete(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        guard let localId = try context.body.string("localId"), !localId.isEmpty else { throw AuthError(.missingLocalId) }
        let deleted = try await services.store.write { tx in try ProviderRevocations.deleteUser(localId, services, tx) }
        guard deleted else { throw AuthError.userNotFound }
        return .json(["kind": "identitytoolkit#DeleteAccountResponse"])
    }
}
