import AuthCore
import Crypto
import WireFormats
import ProviderKit

/// Emulator mode only: accepts the fake IdP credentials the Firebase Auth Emulator accepts, for any provider id
/// — an `id_token` (or `access_token`) that is either JSON claims or an unsigned/unchecked JWT.
///
/// This is what lets app developers' test suites sign in "with Apple" without Apple. It is never registered
/// outside emulator mode (the gateway refuses to build it unless `--emulator` is set), so production can never
/// accept an unverified credential.
struct EmulatorIdpVerifier: Sendable {
    /// Sign-in methods that are not identity providers and never take IdP credentials.
    static let reservedProviderIds: Set = ["anonymous", "password", "phone", "custom", "emaillink", "firebase"]

    func verify(_ assertion: ProviderAssertion, providerId: String) throws -> VerifiedIdentity {
        let token = assertion["id_token"] ?? assertion["access_token"]
        guard let token, !token.isEmpty else {
            throw AuthError(.invalidIdpResponse, "Unable to parse id_token: missing id_token or access_token")
        }
        guard let claims = Self.claims(token) else {
            throw AuthError(.invalidIdpResponse, "Unable to parse id_token: expected JSON claims or a JWT")
        }
        guard let sub = claims["sub"] else {
            throw AuthError(.invalidIdpResponse, "Invalid Idp Response: id_token missing required fields.")
        }
        guard let subject = sub.stringValue, !subject.isEmpty else {
            throw AuthError(.invalidIdpResponse, "The \"sub\" field must be a string.")
        }
        var email: VerifiedIdentity.Email?
        if let address = claims["email"]?.stringValue, !address.isEmpty {
            // The emulator's rule stands in for a provider vouching: email_verified true (or "true").
            let verified = claims["email_verified"] == .bool(true) || claims["email_verified"] == .string("true")
            email = verified ? .trusted(address.lowercased()) : .untrusted(address.lowercased())
        }
        var echoed: [String: String] = [:]
        if let idToken = assertion["id_token"] { echoed["oauthIdToken"] = idToken }
        echoed["oauthAccessToken"] = assertion["access_token"] ?? "FirebaseAuthEmulatorFakeAccessToken_\(providerId)"
        return VerifiedIdentity(
            providerId: ProviderID(providerId), subject: subject, email: email,
            displayName: claims["name"]?.stringValue, photoUrl: claims["picture"]?.stringValue,
            screenName: claims["screen_name"]?.stringValue, rawUserInfo: JSONSerializer.string(.object(claims)),
            echoedCredential: echoed)
    }

    static func claims(_ token: String) -> JSONObject? {
        if token.hasPrefix("{") { return (try? JSONParser.parse(token))?.objectValue }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])) else { return nil }
        return (try? JSONParser.parse(payload))?.objectValue
    }
}
