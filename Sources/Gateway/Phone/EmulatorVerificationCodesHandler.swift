import AuthCore
import WireFormats

/// `GET /emulator/v1/projects/{p}/verificationCodes` (emulator mode only): the phone codes not yet used, as the
/// Firebase emulator lists them, so app test suites read codes instead of receiving them.
enum EmulatorVerificationCodesHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let codes = try await services.phone.codes.listed().map { entry -> JSONValue in
            .object(["code": .string(entry.code), "phoneNumber": .string(entry.phoneNumber),
                     "sessionInfo": .string(entry.sessionInfo)])
        }
        return .json(["verificationCodes": .array(codes)])
    }
}
