import AuthCore
import WireFormats

/// `accounts:signUp` (legacy `signupNewUser`), parsed before any I/O into the variant Firebase dispatches on:
/// - no email, password or ID token: an anonymous account (for admins, an empty account signed in by nobody);
/// - an email and password: a password account, or with `idToken` the upgrade of the signed-in user;
/// - an admin's email and password without `idToken`: an account created without signing anyone in.
enum SignUpRequest: Sendable {
    case anonymous(requestedLocalId: String?, byAdmin: Bool)
    case password(PasswordSignUp.Request)
    case adminCreate(AdminAccountCreation.Request)

    init(_ body: RequestBody, caller: Caller) throws {
        // Firebase always returns tokens to clients; the flag is still type-checked like any known field.
        _ = try body.bool("returnSecureToken")
        if body.has("localId") && !caller.isAdmin { throw AuthError(.unexpectedParameter, "User ID") }
        guard body.has("email") || body.has("password") || body.has("idToken") else {
            self = .anonymous(requestedLocalId: try ProfileLimits.checkLocalId(try body.string("localId")), byAdmin: caller.isAdmin)
            return
        }
        if caller.actsAsAdmin(body) {
            self = .adminCreate(try AdminAccountCreation.Request(body))
        } else {
            self = .password(try PasswordSignUp.Request(body))
        }
    }
}

/// The route's handler: the variant is chosen here, once, from the parsed request.
enum SignUpHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        switch try SignUpRequest(context.body, caller: context.caller) {
        case .anonymous(let localId, let byAdmin):
            return .json(try await AnonymousSignUp.run(requestedLocalId: localId, byAdmin: byAdmin, services, context))
        case .password(let request):
            return .json(try await PasswordSignUp.run(request, services, context))
        case .adminCreate(let request):
            return .json(try await AdminAccountCreation.run(request, services))
        }
    }
}
