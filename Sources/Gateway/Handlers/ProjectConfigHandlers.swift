import AuthCore
import Foundation
import HTTP
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

    /// Applies `ProjectConfigPatch` (field-mask rules, refusal of fields not served) and answers the new config.
    static func update(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        try checkProject(services, context)
        let mask = FormURLEncoding.value(named: "updateMask", in: context.request.query)?
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let defaults = ProjectConfigPatch.Defaults(allowDuplicateEmails: services.configuration.allowDuplicateEmails,
                                                   improvedEmailPrivacy: services.email.privacy.defaultValue)
        let patch = try ProjectConfigPatch.plan(body: context.body.object, mask: mask, defaults: defaults)
        if let allowDuplicateEmails = patch.allowDuplicateEmails {
            try await services.projectSettings.setAllowDuplicateEmails(allowDuplicateEmails)
        }
        if let improvedEmailPrivacy = patch.improvedEmailPrivacy {
            try await services.email.privacy.set(improvedEmailPrivacy)
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
