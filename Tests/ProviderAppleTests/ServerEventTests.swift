import AppleTestSupport
import AuthCore
import ProviderApple
import ProviderKit
import Testing
import WireFormats

/// Notifications go through the same toolkit as identity tokens, under their own policy.
@Suite("Apple notifications: same keys, issuers and audiences; no nonce, no age limit")
struct ServerEventTests {
    let fx: AppleFixture
    init() throws { fx = try AppleFixture() }

    func payload(iat: Int64, exp: Int64, events: JSONValue? = ["type": "consent-revoked", "sub": "apple-sub-1"]) -> String {
        var claims: JSONObject = ["iss": "https://appleid.apple.com", "aud": .string(FakeApple.servicesId), "iat": .int(iat),
                                  "exp": .int(exp), "jti": "jti-1"]
        claims.set("events", events.map { .string(JSONSerializer.string($0)) })
        return FakeApple.sign(claims)
    }

    @Test("a notification delivered long after Apple signed it is accepted while unexpired, and needs no nonce")
    func lateDelivery() async throws {
        let event = try await fx.provider.serverEvent(payload(iat: fx.now - 3600, exp: fx.now + 300))
        #expect(event.id == "jti-1" && event.kind == .consentRevoked && event.subject == "apple-sub-1")
        #expect(event.expiresAt == fx.now + 300)
    }

    @Test("an expired notification and one without an event are refused with Apple's messages")
    func refused() async {
        await #expect(throws: CredentialRefusal(.apple, .expiry, AuthError(.invalidIdpResponse, "notification has expired"))) {
            _ = try await fx.provider.serverEvent(payload(iat: fx.now - 900, exp: fx.now - 61))
        }
        await #expect(throws: CredentialRefusal(.apple, .format, AuthError(.invalidIdpResponse, "notification has no event"))) {
            _ = try await fx.provider.serverEvent(payload(iat: fx.now, exp: fx.now + 300, events: nil))
        }
    }
}
