import AuthCore
import WireFormats

/// `accounts:signUp` (legacy `signupNewUser`) and the admin `POST /v1/projects/{p}/accounts`, parsed before any
/// I/O into the variant Firebase dispatches on:
/// - an admin without `idToken`: an account created as asked, without signing anyone in;
/// - no email, password or ID token: an anonymous account;
/// - an email and password: a password account, or with `idToken` the upgrade of the signed-in user.
enum SignUpRequest: Sendable {
    case anonymous
    case password(PasswordSignUp.Request)
    case adminCreate(AdminAccountCreation.Request)

    init(_ body: RequestBody, caller: Caller) throws {
        // Firebase always returns tokens to clients; the flag is still type-checked like any known field.
        _ = try body.bool("returnSecureToken")
        if body.has("localId") && !caller.actsAsAdmin(body) {
            throw AuthError(.unexpectedParameter, "User ID")
        }
        // Second factors are not served yet: refusing beats creating an account that silently lost them (the same
        // rule as admin `update` with `mfa` and imports with `mfaInfo`).
        if body.has("mfaInfo") {
            throw WireError.invalidPayload("mfaInfo (second factors) is not supported by this gateway yet", reason: "invalid")
        }
        if caller.actsAsAdmin(body) {
            self = .adminCreate(try AdminAccountCreation.Request(body))
        } else if body.has("email") || body.has("password") || body.has("idToken") {
            self = .password(try PasswordSignUp.Request(body))
        } else {
            self = .anonymous
        }
    }
}

/// The route's handler: the variant is chosen here, once, from the parsed request.
enum SignUpHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        switch try SignUpRequest(context.body, caller: context.caller) {
        case .anonymous:
            return .json(try await AnonymousSignUp.run(services, context))
        case .password(let request):
            return .json(try await PasswordSignUp.run(request, services, context))
        case .adminCreate(let request):
            return .json(try await AdminAccountCreation.run(request, services))
        }
    }
}
