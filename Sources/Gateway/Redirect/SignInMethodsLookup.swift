import AuthCore
import Crypto
import Storage
import WireFormats

/// `accounts:createAuthUri` without a provider: which sign-in methods the account with this email has
/// (`fetchSignInMethodsForEmail`), as the Firebase emulator answers it — or nothing with improved email privacy.
/// `continueUri` is required and must be an absolute URI, as Firebase checks it, though nothing is sent there
/// (the SDKs send the page's URL, or `http://localhost`).
enum SignInMethodsLookup {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        guard let identifier = try context.body.string("identifier"), !identifier.isEmpty else {
            throw AuthError(.missingIdentifier)
        }
        // Firebase's order: both fields present, then each one's form.
        guard let continueUri = try context.body.string("continueUri"), !continueUri.isEmpty else {
            throw AuthError(.missingContinueUri)
        }
        guard let email = EmailAddress.canonical(identifier) else { throw AuthError(.invalidIdentifier) }
        guard AbsoluteURI.isValid(continueUri) else { throw AuthError(.invalidContinueUri) }
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

/// An absolute URI as Firebase accepts one for `continueUri`: a scheme (RFC 3986: a letter, then letters, digits,
/// `+`, `-`, `.`), a colon and something after it. `invalid` and `/relative` are refused; `http://x/` and
/// `com.example.app:/callback` are not.
enum AbsoluteURI {
    static func isValid(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex,
              !text.contains(where: { $0.isWhitespace })
        else { return false }
        let scheme = text[..<colon]
        return scheme.first!.isASCII && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
