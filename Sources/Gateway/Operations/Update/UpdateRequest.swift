import AuthCore
import WireFormats

/// `accounts:update` (legacy `setAccountInfo`), parsed before any I/O into the variant Firebase dispatches on:
/// an `oobCode` alone applies an action code (the SDKs' `applyActionCode`); otherwise it is a change to the
/// account of `idToken` (the user) or of `localId` (an admin).
enum UpdateRequest: Sendable {
    case applyCode(String?)
    case change(AccountUpdate.Request)

    init(_ body: RequestBody, caller: Caller) throws {
        if body.has("oobCode") && !body.has("idToken") && !body.has("localId") {
            self = .applyCode(try body.string("oobCode"))
        } else {
            self = .change(try AccountUpdate.Request(body, caller: caller))
        }
    }
}

/// The route's handler: the variant is chosen here, once, from the parsed request.
enum UpdateHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        switch try UpdateRequest(context.body, caller: context.caller) {
        case .applyCode(let code):
            let (user, identities, payload) = try await ApplyOobCode.apply(services, code: code)
            var response = UserInfoJSON.setAccountInfoResponse(user, identities: identities)
            response.set("newEmail", payload.newEmail)
            if let change = EmailRecovery.change(afterApplying: payload) { await EmailRecovery.notify(change, services, context) }
            return .json(response)
        case .change(let request):
            let (response, emailChange) = try await AccountUpdate.run(request, services)
            if let emailChange { await EmailRecovery.notify(emailChange, services, context) }
            return .json(response)
        }
    }
}
