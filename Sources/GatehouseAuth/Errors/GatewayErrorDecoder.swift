import Foundation

/// Turns a refusal from the gateway into an `AuthError` through `GatewayErrorTable`: Google's envelope
/// `{"error":{"code":400,"message":"CODE : detail","errors":[{"reason":…}],"status":…}}`, or a 200
/// `signInWithIdp` answer that carries `errorMessage` or `needConfirmation` instead of a session.
enum GatewayErrorDecoder {
    /// A non-2xx answer. `body` is nil when it was not a JSON object (an HTML page from a proxy).
    static func error(status: Int, body: GatewayResponse?) -> AuthError {
        guard let envelope = body.flatMap({ $0.object["error"] as? [String: Any] }).map(GatewayResponse.init),
              let message = envelope.string("message") else {
            return AuthError(.internalError, "The gateway answered HTTP \(status) without Google's error envelope.", httpStatus: status)
        }
        let (code, detail) = split(message)
        let reason = envelope.objects("errors").first?.string("reason")
        let name = code ?? (reason == "keyInvalid" ? "API_KEY_INVALID" : envelope.string("status"))
        return error(name: name, detail: detail ?? message, status: status)
    }

    /// A 200 `signInWithIdp` answer that did not sign anyone in: `needConfirmation` (an account with the
    /// identity's email exists) or `errorMessage` (`FEDERATED_USER_ID_ALREADY_LINKED`). Both carry the gateway's
    /// `pendingToken`, which becomes the updated credential.
    static func idpRefusal(_ body: GatewayResponse, providerID: String) -> AuthError? {
        let name: String
        let detail: String?
        if body.bool("needConfirmation") {
            (name, detail) = ("NEED_CONFIRMATION", "An account already exists with the same email address but a different sign-in method.")
        } else if let message = body.string("errorMessage") {
            let (code, text) = split(message)
            (name, detail) = (code ?? message, text)
        } else {
            return nil
        }
        let provider = body.string("providerId") ?? providerID
        let credential = body.string("pendingToken").map { OAuthCredential(pendingToken: $0, providerID: provider, email: body.string("email")) }
        return error(name: name, detail: detail ?? name, status: 200, updatedCredential: credential, email: body.string("email"))
    }

    static func error(name: String?, detail: String, status: Int?, updatedCredential: AuthCredential? = nil,
                      email: String? = nil, phoneNumber: String? = nil) -> AuthError {
        let code = name.flatMap { GatewayErrorTable.codes[$0] } ?? .internalError
        return AuthError(code, detail, gatewayCode: name, httpStatus: status, updatedCredential: updatedCredential,
                         email: email, phoneNumber: phoneNumber)
    }

    /// `"CODE : detail"` → (`CODE`, `detail`); a message that does not start with an upper-case code → (nil, nil).
    private static func split(_ message: String) -> (String?, String?) {
        let parts = message.components(separatedBy: " : ")
        let head = parts[0].trimmingCharacters(in: .whitespaces)
        guard !head.isEmpty, head.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }) else {
            return (nil, nil)
        }
        return (head, parts.count > 1 ? parts.dropFirst().joined(separator: " : ") : nil)
    }
}
