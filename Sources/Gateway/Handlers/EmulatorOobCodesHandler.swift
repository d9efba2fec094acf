import AuthCore
import HTTP
import ProviderKit
import WireFormats

/// `GET /emulator/v1/projects/{p}/oobCodes` (emulator mode): the codes issued since start that can still be
/// used, oldest first, as the emulator lists them (a used code disappears; a change of address is listed under
/// the old address, with `newEmail`).
enum EmulatorOobCodesHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        if let project = context.parameters["projectId"], project != services.configuration.projectId {
            throw AuthError(.configurationNotFound)
        }
        guard let log = services.email.emulatorLog else { return .json(["oobCodes": []]) }
        var usable: [EmulatorOobLog.Entry] = []
        var spent: Set<String> = []
        for entry in log.all {
            do {
                _ = try await services.email.codes.peek(entry.oobCode)
                usable.append(entry)
            } catch is AuthError {
                spent.insert(entry.oobCode)
            }
        }
        log.forget(spent)
        return .json(["oobCodes": .array(usable.map { entry in
            var item: JSONObject = ["email": .string(entry.email), "oobCode": .string(entry.oobCode),
                                    "oobLink": .string(entry.oobLink), "requestType": .string(entry.requestType)]
            item.set("newEmail", entry.newEmail)
            return .object(item)
        })])
    }
}
