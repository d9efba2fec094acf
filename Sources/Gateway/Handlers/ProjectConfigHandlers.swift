import AuthCore
import Storage
import WireFormats

/// The project config resource (`GET/PATCH /v2/projects/{p}/config`, admin) and the emulator's utility routes
/// (`/emulator/v1/projects/{p}/config`, `DELETE /emulator/v1/projects/{p}/accounts`, emulator mode only).
enum ProjectConfigHandlers {
    static func get(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        try checkProject(services, context)
        var config = services.projectSettings.render(try await services.projectSettings.current())
        try await services.email.privacy.render(into: &config)
        return .json(config)
    }

    /// Only fields present in the body change; a non-empty `updateMask` further restricts them (an empty mask
    /// means "every field in the body", as in Google's APIs). The whole body is validated first.
    static func update(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        try checkProject(services, context)
        let mask = FormURLEncoding.value(named: "updateMask", in: context.request.query)?
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var allowDuplicateEmails: Bool?
        let emailPrivacy = try EmailPrivacy.requested(in: context.body)
        if let signIn = context.body.object["signIn"], !signIn.isNull {
            guard let object = signIn.objectValue else {
                throw WireError.invalidPayload("Invalid value at 'sign_in' (TYPE_MESSAGE)", reason: "invalid")
            }
            if let value = object["allowDuplicateEmails"], !value.isNull {
                guard let flag = value.boolValue else {
                    throw WireError.invalidPayload("Invalid value at 'sign_in.allow_duplicate_emails' (TYPE_BOOL)", reason: "invalid")
                }
                allowDuplicateEmails = flag
            }
        }
        let field = ProjectSettings.allowDuplicateEmailsKey
        if let allowDuplicateEmails, mask.map({ $0.isEmpty || $0.contains(field) }) ?? true {
            try await services.projectSettings.setAllowDuplicateEmails(allowDuplicateEmails)
        }
        if let emailPrivacy, mask.map({ $0.isEmpty || $0.contains(EmailPrivacy.maskField) }) ?? true {
            try await services.email.privacy.set(emailPrivacy)
        }
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
            throw WireError.notFound
        }
    }
}
