import AuthCore
import Crypto
import WireFormats

/// `accounts:createAuthUri` without a provider: which sign-in methods the account with this email has
/// (`fetchSignInMethodsForEmail`), as the Firebase emulator answers it — or nothing with improved email privacy.
enum SignInMethodsLookup {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        guard let identifier = try context.body.string("identifier"), !identifier.isEmpty else {
            throw AuthError(.missingIdentifier)
        }
        guard identifier.contains("@") else { throw AuthError(.invalidIdentifier) }
        let email = identifier.lowercased()
        // Improved email privacy: nothing about the address, as Firebase answers with enumeration protection.
        if try await services.email.privacy.isOn() {
            return .json(["kind": "identitytoolkit#CreateAuthUriResponse",
                          "sessionId": .string(try context.body.string("sessionId") ?? SecureRandom.token(byteCount: 20))])
        }
        let methods = try await services.store.read { tx -> [String]? in
            guard let user = try tx.user(email: email) else { return nil }
            var methods: [String] = user.password != nil ? ["password"] : []
            if user.emailLinkSignin { methods.append("emailLink") }
            methods += try tx.identities(localId: user.localId).map(\.providerId).filter { $0 != "password" && $0 != "phone" }
            return methods
        }
        let sessionId = try context.body.string("sessionId") ?? SecureRandom.token(byteCount: 20)
        var response: JSONObject = ["kind": "identitytoolkit#CreateAuthUriResponse", "registered": .bool(methods != nil),
                                    "sessionId": .string(sessionId)]
        let all = methods ?? []
        response["allProviders"] = .array(all.filter { $0 != "emailLink" }.map(JSONValue.string))
        response["signinMethods"] = .array(all.map(JSONValue.string))
        return .json(response)
    }
}
