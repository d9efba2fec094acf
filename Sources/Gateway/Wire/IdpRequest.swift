import AuthCore
import Foundation
import WireFormats

/// A decoded `accounts:signInWithIdp` request.
///
/// Firebase clients put the IdP credential in different places: the JS popup flow in the `requestUri`'s
/// query, native SDKs in the form-encoded `postBody`, some redirect flows in the URI fragment. Parameters are
/// merged in that order, later sources overriding earlier ones, as the Firebase emulator does.
struct IdpRequest: Sendable {
    let requestUri: String
    let parameters: [String: String]
    let idToken: String?
    let pendingToken: String?
    let returnIdpCredential: Bool
    let autoCreate: Bool
    let sessionId: String?

    init(_ body: RequestBody) throws {
        guard let requestUri = try body.string("requestUri"), !requestUri.isEmpty else {
            throw AuthError(.missingRequestUri)
        }
        guard let url = URL(string: requestUri), let scheme = url.scheme, !scheme.isEmpty, url.host != nil else {
            throw AuthError(.invalidRequestUri)
        }
        var merged: [String: String] = [:]
        let sources = [url.query, try body.string("postBody"), url.fragment]
        for source in sources {
            guard let source, !source.isEmpty else { continue }
            for (name, value) in FormURLEncoding.decode(source) where !name.isEmpty { merged[name] = value }
        }
        if let provider = merged["providerId"] { merged["providerId"] = provider.lowercased() }
        self.requestUri = requestUri
        self.parameters = merged
        self.idToken = try body.string("idToken").flatMap { $0.isEmpty ? nil : $0 }
        self.pendingToken = try body.string("pendingToken").flatMap { $0.isEmpty ? nil : $0 }
        self.returnIdpCredential = try body.bool("returnIdpCredential") ?? false
        // Firebase always returns tokens; the flag is still type-checked like any known field.
        _ = try body.bool("returnSecureToken")
        self.autoCreate = try body.bool("autoCreate") ?? true
        self.sessionId = try body.string("sessionId")
    }

    var providerId: String? { parameters["providerId"].flatMap { $0.isEmpty ? nil : $0 } }

    /// Firebase's wording for a credential it cannot attribute to a provider.
    var unknownCredentialError: AuthError {
        AuthError(.invalidCredentialOrProviderId, "Invalid IdP response/credential: \(requestUri)")
    }
}
