import AuthCore
import Crypto
import ProviderEmail

/// `accounts:createAuthUri` (the SDKs' `fetchSignInMethodsForEmail`): whether an address is registered and
/// with which methods. With improved email privacy on it answers nothing about the address, as Firebase does.
enum CreateAuthUriHandler {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        guard let identifier = try body.string("identifier"), !identifier.isEmpty else {
            throw AuthError(.missingIdentifier)
        }
        guard let address = EmailAddress.canonical(identifier) else { throw AuthError(.invalidIdentifier) }
        guard let continueUri = try body.string("continueUri"), !continueUri.isEmpty else {
            throw AuthError(.missingContinueUri)
        }
        guard let url = URLParts(continueUri), url.isAbsolute else { throw AuthError(.invalidContinueUri) }
        let sessionId = try body.string("sessionId") ?? SecureRandom.alphanumeric(length: 27)
        var response: JSONObject = ["kind": "identitytoolkit#CreateAuthUriResponse"]
        if try await services.email.privacy.isOn() {
            response["sessionId"] = .string(sessionId)
            return .json(response)
        }
        let found = try await services.store.read { tx -> (UserRecord, [ProviderIdentity])? in
            if let user = try tx.user(email: address) { return (user, try tx.identities(localId: user.localId)) }
            guard let identity = try tx.identities(email: address).first,
                  let user = try tx.user(localId: identity.localId) else { return nil }
            return (user, try tx.identities(localId: user.localId))
        }
        var all: [String] = []
        var methods: [String] = []
        if let (user, identities) = found {
            if user.email == address && (user.password != nil || user.emailLinkSignin) {
                all.append(ProviderID.password.rawValue)
                if user.password != nil { methods.append("password") }
                if user.emailLinkSignin { methods.append("emailLink") }
            }
            for identity in identities where !all.contains(identity.providerId) {
                all.append(identity.providerId)
                methods.append(identity.providerId)
            }
        }
        response["registered"] = .bool(found != nil)
        response["allProviders"] = .array(all.map(JSONValue.string))
        response["sessionId"] = .string(sessionId)
        response["signinMethods"] = .array(methods.map(JSONValue.string))
        return .json(response)
    }
}

/// Just enough URL parsing to tell an absolute http(s) URL from anything else.
struct URLParts {
    let scheme: String
    let host: String
    var isAbsolute: Bool { (scheme == "http" || scheme == "https") && !host.isEmpty }

    init?(_ text: String) {
        guard let range = text.range(of: "://") else { return nil }
        scheme = text[..<range.lowerBound].lowercased()
        let rest = text[range.upperBound...]
        host = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }
}
