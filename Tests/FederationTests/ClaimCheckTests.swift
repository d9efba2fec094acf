import Federation
import ProviderKit
import Testing
import WireFormats

/// The registered-claim checks: one test per check, each failing if its check is removed.
@Suite("Federated tokens: subject, issuer, audience and times")
struct ClaimCheckTests {
    let fx = Fixture()

    @Test("subject: required and non-empty where the policy says so")
    func subject() async {
        let refusal = await fx.refusal(fx.token { $0["sub"] = "" })
        #expect(refusal?.check == .format)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token has no subject")
        let optional = Fixture { $0.requiresSubject = false }
        #expect(await optional.failure(optional.token { $0["sub"] = nil }) == nil)
    }

    @Test("issuer: only the configured ones")
    func issuer() async {
        let refusal = await fx.refusal(fx.token { $0["iss"] = "https://idp.test/" })
        #expect(refusal?.check == .issuer)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token issuer is not Test IdP")
        let two = Fixture { $0.issuers.insert("https://other.test") }
        #expect(await two.failure(two.token { $0["iss"] = "https://other.test" }) == nil)
    }

    @Test("audience: a string naming another client is refused")
    func audience() async {
        let refusal = await fx.refusal(fx.token { $0["aud"] = "client-x" })
        #expect(refusal?.check == .audience)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token audience is not a configured client ID")
        #expect(await fx.refusal(fx.token { $0["aud"] = nil })?.check == .audience)
    }

    @Test("audience: an array of one configured client passes; an extra unknown audience is refused")
    func audienceArray() async {
        #expect(await fx.failure(fx.token(nonce: 1) { $0["aud"] = ["client-b"] }, nonce: Fixture.nonce(1)) == nil)
        #expect(await fx.refusal(fx.token { $0["aud"] = ["client-a", "client-x"]; $0["azp"] = "client-a" })?.check == .audience)
        #expect(await fx.refusal(fx.token { $0["aud"] = [] })?.check == .audience)
        #expect(await fx.refusal(fx.token { $0["aud"] = ["client-a", 7] })?.check == .audience)
    }

    @Test("audience: several audiences need azp naming one of them, which becomes the client")
    func audienceArrayNeedsAuthorizedParty() async throws {
        #expect(await fx.refusal(fx.token { $0["aud"] = ["client-a", "client-b"] })?.check == .audience)
        #expect(await fx.refusal(fx.token { $0["aud"] = ["client-a", "client-b"]; $0["azp"] = "client-x" })?.check == .audience)
        let token = try await fx.verifier.verify(fx.token(nonce: 2) { $0["aud"] = ["client-a", "client-b"]; $0["azp"] = "client-b" },
                                                 rawNonce: Fixture.nonce(2))
        #expect(token.audience == "client-b")
    }

    @Test("audience: with one audience, azp naming another party is not a reason to refuse (Google-style tokens)")
    func singleAudienceIgnoresAuthorizedParty() async throws {
        let token = try await fx.verifier.verify(fx.token { $0["azp"] = "android-client" }, rawNonce: Fixture.nonce())
        #expect(token.audience == "client-a")
    }

    @Test("expiry: past exp beyond the skew is refused; within the skew passes")
    func expiry() async {
        let now = fx.now
        let refusal = await fx.refusal(fx.token { $0["iat"] = .int(now - 300); $0["exp"] = .int(now - 60) })
        #expect(refusal?.check == .expiry)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token has expired")
        #expect(await fx.failure(fx.token(nonce: 1) { $0["exp"] = .int(now - 59) }, nonce: Fixture.nonce(1)) == nil)
        #expect(await fx.refusal(fx.token { $0["exp"] = nil })?.check == .expiry)
    }

    @Test("issued at: iat in the future beyond the skew is refused")
    func issuedInFuture() async {
        let now = fx.now
        let refusal = await fx.refusal(fx.token { $0["iat"] = .int(now + 61) })
        #expect(refusal?.check == .issuedAt)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token was issued in the future")
        #expect(await fx.failure(fx.token(nonce: 1) { $0["iat"] = .int(now + 60) }, nonce: Fixture.nonce(1)) == nil)
    }

    @Test("not before: nbf in the future beyond the skew is refused")
    func notBefore() async {
        let now = fx.now
        let refusal = await fx.refusal(fx.token { $0["nbf"] = .int(now + 61) })
        #expect(refusal?.check == .issuedAt)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token is not valid yet")
        #expect(await fx.refusal(fx.token { $0["nbf"] = "soon" })?.check == .issuedAt)
        #expect(await fx.failure(fx.token(nonce: 1) { $0["nbf"] = .int(now + 60) }, nonce: Fixture.nonce(1)) == nil)
    }

    @Test("age: older than the policy's maximum is refused; no maximum means no age check")
    func maxAge() async {
        let now = fx.now
        let old: (inout JSONObject) -> Void = { $0["iat"] = .int(now - 601); $0["exp"] = .int(now + 600) }
        let refusal = await fx.refusal(fx.token(.rsa, nonce: 0, old))
        #expect(refusal?.check == .age)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token is older than 10 minutes")
        let unbounded = Fixture { $0.maxAgeSeconds = nil }
        #expect(await unbounded.failure(unbounded.token(.rsa, nonce: 0, old)) == nil)
        let odd = Fixture { $0.maxAgeSeconds = 90 }
        #expect(await odd.failure(odd.token { $0["iat"] = .int(now - 91) }) == "INVALID_IDP_RESPONSE : id_token is older than 90 seconds")
    }

    @Test("messages use the policy's names for the token and the audiences")
    func wording() async {
        let named = Fixture { $0.tokenName = "notification"; $0.audienceDescription = "a configured app ID" }
        #expect(await named.failure(named.token { $0["aud"] = "x" }) == "INVALID_IDP_RESPONSE : notification audience is not a configured app ID")
    }
}
