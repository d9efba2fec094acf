import AuthCore
import Storage

/// The project config resource (`GET/PATCH /v2/projects/{p}/config`, admin) and the emulator's utility routes
/// (`/emulator/v1/projects/{p}/config`, `DELETE /emulator/v1/projects/{p}/accounts`, emulator mode only).
enum ProjectConfigHandlers {
    static func get(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        try checkProject(services, context)
        var config = services.projectSettings.render(try await services.projectSettings.current())
        try await services.email.privacy.render(into: &config)
        return .json(config)
    }

    /// Only fields present in the body (and, when given, named in `updateMask`) change.
    static func update(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        try checkProject(services, context)
        let mask = QueryString.value("updateMask", in: context.request.query)?
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if let signIn = context.body.object["signIn"] {
            guard let object = signIn.objectValue else {
                throw WireError.invalidPayload("Invalid value at 'sign_in' (TYPE_MESSAGE)", reason: "invalid")
            }
            let field = ProjectSettings.allowDuplicateEmailsKey
            if let value = object["allowDuplicateEmails"], mask?.contains(field) ?? true {
                guard let flag = value.boolValue else {
                    throw WireError.invalidPayload("Invalid value at 'sign_in.allow_duplicate_emails' (TYPE_BOOL)", reason: "invalid")
                }
                try await services.projectSettings.setAllowDuplicateEmails(flag)
            }
        }
        try await services.email.privacy.apply(context.body)
        var config = services.projectSettings.render(try await services.projectSettings.current())
        try await services.email.privacy.render(into: &config)
        return .json(config)
    }

    /// Deletes every account of the project (the emulator's reset between tests).
    static func deleteAllAccounts(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        try checkProject(services, context)
        while true {
            let deleted = try await services.store.write { tx -> Int in
                let batch = try tx.users(afterLocalId: nil, limit: 500)
                for user in batch { _ = try tx.deleteUser(localId: user.localId) }
                return batch.count
            }
            if deleted == 0 { break }
        }
        return .json(JSONObject())
    }

    private static func checkProject(_ services: GatewayServices, _ context: OperationContext) throws {
        if let project = context.parameters["projectId"], project != services.configuration.projectId {
            throw AuthError(.configurationNotFound)
        }
    }
}
