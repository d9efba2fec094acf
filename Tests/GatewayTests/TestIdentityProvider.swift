import AuthCore
import ProviderKit

/// A provider that exists only in tests: it "verifies" a credential by a shared secret in the assertion, so
/// linking behaviour can be exercised in-process without any real or emulated IdP.
struct TestIdentityProvider: AssertionVerifier {
    var id: ProviderID = "test.example"
    var isEnabled = true

    func verify(_ assertion: ProviderAssertion, context: RequestContext) async throws -> VerifiedIdentity {
        guard assertion["secret"] == "open-sesame", let subject = assertion["sub"], !subject.isEmpty else {
            throw AuthError(.invalidIdpResponse, "test credential rejected")
        }
        let email = assertion["email"].map { assertion["trusted"] == "1" ? VerifiedIdentity.Email.trusted($0) : .untrusted($0) }
        return VerifiedIdentity(providerId: id, subject: subject, email: email, displayName: assertion["name"],
                                rawUserInfo: "{\"sub\":\"\(subject)\"}", echoedCredential: ["oauthAccessToken": "test-access"])
    }
}
