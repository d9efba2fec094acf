import AppleTestSupport
import AuthCore
import Testing
@testable import Gateway
import WireFormats

@Suite("Apple server-to-server notifications", .serialized)
struct AppleNotificationTests {
    let apple = FakeApple()
    static let path = "/gatehouse/v1/apple/notifications"

    func event(_ gw: TestGateway, type: String, sub: String = "apple-sub-1", jti: String = "jti-1",
               aud: String = FakeApple.bundleId, kid: String = "k1", iss: String = "https://appleid.apple.com") -> JSONValue {
        let events = JSONSerializer.string(["type": .string(type), "sub": .string(sub),
                                            "event_time": .int(gw.time.nowMilliseconds), "is_private_email": "true"])
        let now = gw.time.nowSeconds
        let claims: JSONObject = ["iss": .string(iss), "aud": .string(aud), "iat": .int(now),
                                  "exp": .int(now + 300), "jti": .string(jti), "events": .string(events)]
        return ["payload": .string(FakeApple.sign(claims, kid: kid))]
    }

    func user(_ gw: TestGateway, _ localId: String?) async throws -> UserRecord? {
        try await gw.store.read { try $0.user(localId: localId ?? "") }
    }

    @Test("consent-revoked unlinks Apple and ends the user's sessions; with no sign-in method left the account is disabled")
    func consentRevoked() async throws {
        let gw = try await TestGateway.withApple(apple)
        let anonymous = await gw.signUpAnonymously()
        let linked = await gw.signInWithApple(idToken: anonymous["idToken"]?.stringValue)
        gw.time.advance(seconds: 1)
        #expect(await gw.post(Self.path, event(gw, type: "consent-revoked"), key: nil).status == 200)
        let identities = try await gw.store.read { try $0.identities(localId: linked["localId"]?.stringValue ?? "") }
        #expect(identities.isEmpty)
        let stored = try #require(try await user(gw, linked["localId"]?.stringValue), "the account stays")
        #expect(stored.disabled, "an anonymous user whose only sign-in method was Apple cannot sign in any more")
        #expect(await gw.refresh(linked["refreshToken"]?.stringValue ?? "").error == "USER_DISABLED")
        #expect(await gw.lookup(linked["idToken"]?.stringValue ?? "").error == "USER_DISABLED")
    }

    @Test("account-delete deletes a user with no other sign-in method, and only unlinks one that has another")
    func accountDelete() async throws {
        let gw = try await TestGateway.withApple(apple)
        let onlyApple = await gw.signInWithApple(sub: "only-apple")
        #expect(await gw.post(Self.path, event(gw, type: "account-delete", sub: "only-apple", jti: "a1"), key: nil).status == 200)
        #expect(try await user(gw, onlyApple["localId"]?.stringValue) == nil)

        let other = await gw.signInWithIdp(sub: "t-keep")
        _ = await gw.signInWithApple(sub: "apple-keep", idToken: other["idToken"]?.stringValue)
        #expect(await gw.post(Self.path, event(gw, type: "account-deleted", sub: "apple-keep", jti: "a2"), key: nil).status == 200)
        let kept = try await gw.store.read { try $0.identities(localId: other["localId"]?.stringValue ?? "") }
        #expect(kept.map(\.providerId) == ["test.example"])
    }

    @Test("email-disabled, email-enabled and unknown types are acknowledged and change nothing")
    func acknowledgedOnly() async throws {
        let gw = try await TestGateway.withApple(apple)
        let user = await gw.signInWithApple()
        for (type, jti) in [("email-disabled", "e1"), ("email-enabled", "e2"), ("something-new", "e3")] {
            #expect(await gw.post(Self.path, event(gw, type: type, jti: jti), key: nil).status == 200)
        }
        let identities = try await gw.store.read { try $0.identities(localId: user["localId"]?.stringValue ?? "") }
        #expect(identities.map(\.providerId) == ["apple.com"])
        #expect(await gw.refresh(user["refreshToken"]?.stringValue ?? "").status == 200)
    }

    @Test("a repeated jti is applied once")
    func idempotent() async throws {
        let gw = try await TestGateway.withApple(apple)
        let other = await gw.signInWithIdp(sub: "t-user")
        let localId = other["localId"]?.stringValue ?? ""
        _ = await gw.signInWithApple(idToken: other["idToken"]?.stringValue)
        let revoked = event(gw, type: "consent-revoked", jti: "same")
        #expect(await gw.post(Self.path, revoked, key: nil).status == 200)
        #expect(try await gw.store.read { try $0.identities(localId: localId) }.map(\.providerId) == ["test.example"])
        // The user signs in again and links Apple again; Apple's retry of the same delivery must not unlink it.
        gw.time.advance(seconds: 2)
        let fresh = await gw.signInWithIdp(sub: "t-user")
        #expect(await gw.signInWithApple(idToken: fresh["idToken"]?.stringValue).status == 200)
        #expect(await gw.post(Self.path, revoked, key: nil).status == 200)
        #expect(try await gw.store.read { try $0.identities(localId: localId) }.map(\.providerId).sorted()
                == ["apple.com", "test.example"])
        #expect(gw.logs.contents.contains { $0.contains("\"outcome\":\"duplicate\"") })
    }

    @Test("the general events route and the older path answer alike; a malformed request is Google's INVALID_ARGUMENT")
    func routes() async throws {
        let gw = try await TestGateway.withApple(apple)
        let other = await gw.signInWithIdp(sub: "t-user")
        _ = await gw.signInWithApple(idToken: other["idToken"]?.stringValue)
        let general = "/gatehouse/v1/providers/apple.com/events"
        #expect(await gw.post(general, event(gw, type: "consent-revoked", jti: "g1"), key: nil).status == 200)
        #expect(try await gw.store.read { try $0.identities(localId: other["localId"]?.stringValue ?? "") }
                .map(\.providerId) == ["test.example"])
        for path in [Self.path, general] {
            let missing = await gw.post(path, ["other": "x"], key: nil)
            #expect(missing.status == 400)
            #expect(missing.error == "Invalid JSON payload received. payload is required")
            let notJSON = await gw.send("POST", path, body: "payload=x", headers: [("Content-Type", "application/json")])
            #expect(notJSON.status == 400)
            #expect(notJSON.json["error"]?["status"]?.stringValue == "INVALID_ARGUMENT")
        }
    }

    @Test("forged, foreign and expired events are refused")
    func refused() async throws {
        let gw = try await TestGateway.withApple(apple)
        #expect(await gw.post(Self.path, event(gw, type: "consent-revoked", kid: "nope"), key: nil).error
                == "INVALID_IDP_RESPONSE : notification was signed with a key Apple does not publish")
        #expect(await gw.post(Self.path, event(gw, type: "consent-revoked", aud: "com.other"), key: nil).error
                == "INVALID_IDP_RESPONSE : notification audience is not a configured bundle ID or Services ID")
        #expect(await gw.post(Self.path, event(gw, type: "consent-revoked", iss: "https://evil.example"), key: nil).error
                == "INVALID_IDP_RESPONSE : notification issuer is not Apple")
        let old = event(gw, type: "consent-revoked", jti: "late")
        gw.time.advance(seconds: 400)
        #expect(await gw.post(Self.path, old, key: nil).error == "INVALID_IDP_RESPONSE : notification has expired")
        #expect(await gw.post(Self.path, ["payload": "not-a-jws"], key: nil).status == 400)
    }
}
