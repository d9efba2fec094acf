import AuthCore
import HTTP
import ProviderKit
import WireFormats

/// `GET /emulator/v1/projects/{p}/oobCodes` (emulator mode): every code issued since start.
enum EmulatorOobCodesHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        if let project = context.parameters["projectId"], project != services.configuration.projectId {
            throw AuthError(.configurationNotFound)
        }
        let entries = services.email.emulatorLog?.all ?? []
        return .json(["oobCodes": .array(entries.map { entry in
            .object(["email": .string(entry.email), "oobCode": .string(entry.oobCode), "oobLink": .string(entry.oobLink),
                     "requestType": .string(entry.requestType)])
        })])
    }
}
