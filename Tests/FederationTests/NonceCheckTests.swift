import Crypto
import Federation
import ProviderKit
import Testing
import WireFormats

/// The nonce rule and single use: one test per check, each failing if its check is removed.
@Suite("Federated tokens: nonce binding and replay")
struct NonceCheckTests {
    let fx = Fixture()

    @Test("nonce: a required raw nonce that is missing is refused before any key is fetched")
    func missing() async {
        let refusal = await fx.refusal(fx.token(), nonce: nil)
        #expect(refusal?.check == .nonce)
        #expect(refusal?.error.message == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
        #expect(await fx.failure(fx.token(), nonce: "") == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
        #expect(fx.issuer.fetches(of: FakeIssuer.jwksURL) == 0)
    }

    @Test("nonce: a raw nonce outside 16-256 characters is refused")
    func length() async {
        let message = "MISSING_OR_INVALID_NONCE : The raw nonce must be 16 to 256 characters."
        #expect(await fx.failure(fx.token(), nonce: "short") == message)
        #expect(await fx.failure(fx.token(), nonce: String(repeating: "n", count: 257)) == message)
        let custom = Fixture { $0.nonce?.rawLength = 32...64 }
        #expect(await custom.failure(custom.token(), nonce: Fixture.nonce())
                == "MISSING_OR_INVALID_NONCE : The raw nonce must be 32 to 64 characters.")
    }

    @Test("nonce: a token without a nonce claim is refused when the request has one")
    func claimMissing() async {
        let refusal = await fx.refusal(fx.token { $0["nonce"] = nil })
        #expect(refusal?.check == .nonce)
        #expect(refusal?.error.message
                == "MISSING_OR_INVALID_NONCE : The ID token has no nonce claim; pass the SHA-256 hex of the raw nonce to Test IdP.")
    }

    @Test("nonce: a claim that is not the SHA-256 hex of the raw nonce is refused")
    func mismatch() async {
        let refusal = await fx.refusal(fx.token(), nonce: Fixture.nonce(9))
        #expect(refusal?.check == .nonce)
        #expect(refusal?.error.message
                == "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
        let upper = fx.token { $0["nonce"] = .string(SHA256.hexDigest(Fixture.nonce()).uppercased()) }
        #expect(await fx.refusal(upper)?.check == .nonce, "the hex form is lowercase, as Firebase's clients send it")
    }

    @Test("nonce: the raw value as the claim is refused unless the provider's setting allows it")
    func rawClaimSetting() async {
        let raw: (inout JSONObject) -> Void = { $0["nonce"] = .string(Fixture.nonce()) }
        #expect(await fx.refusal(fx.token(.rsa, nonce: 0, raw))?.check == .nonce)
        let lenient = Fixture { $0.nonce?.acceptsRawClaim = true }
        #expect(await lenient.failure(lenient.token(.rsa, nonce: 0, raw)) == nil)
        #expect(await lenient.failure(lenient.token(nonce: 1), nonce: Fixture.nonce(1)) == nil, "the hashed form still passes")
        #expect(await lenient.refusal(lenient.token { $0["nonce"] = "something-else-entirely" })?.check == .nonce)
    }

    @Test("nonce optional: neither passes, both must match, and a nonce-bound token without its nonce is refused")
    func optionalNonce() async {
        let optional = Fixture { $0.nonce?.presence = .optional }
        #expect(await optional.failure(optional.token { $0["nonce"] = nil }, nonce: nil) == nil)
        #expect(await optional.failure(optional.token { $0["nonce"] = nil }, nonce: nil) == nil, "no nonce, nothing to consume")
        #expect(await optional.failure(optional.token(), nonce: nil) == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
        #expect(await optional.refusal(optional.token(), nonce: Fixture.nonce(3))?.check == .nonce)
        #expect(await optional.failure(optional.token()) == nil)
    }

    @Test("nonce checked when sent (Google): a claim without a raw nonce passes; with one it must match, once")
    func checkedWhenSent() async {
        let google = Fixture { $0.nonce?.presence = .checkedWhenSent }
        let bound = google.token()
        #expect(await google.failure(bound, nonce: nil) == nil, "a nonce the client never saw is not held against it")
        #expect(await google.failure(bound, nonce: nil) == nil, "nothing recorded without a raw nonce")
        #expect(await google.failure(google.token { $0["nonce"] = nil }, nonce: nil) == nil)
        #expect(await google.refusal(google.token(), nonce: Fixture.nonce(3))?.check == .nonce, "sent: checked")
        #expect(await google.failure(google.token()) == nil)
        #expect(await google.refusal(google.token())?.check == .replay)
    }

    @Test("no nonce rule (notifications): the request's nonce and the claim are not consulted")
    func noRule() async throws {
        let plain = Fixture { $0.nonce = nil }
        let token = plain.token { $0["nonce"] = "whatever" }
        #expect(await plain.failure(token, nonce: nil) == nil)
        #expect(await plain.failure(token, nonce: nil) == nil, "without a nonce there is no single use")
    }

    @Test("replay: a nonce is accepted once, keyed by its SHA-256, remembered until exp plus skew")
    func replay() async {
        let token = fx.token()
        #expect(await fx.failure(token) == nil)
        let refusal = await fx.refusal(fx.token(.ec))
        #expect(refusal?.check == .replay)
        #expect(refusal?.error.message
                == "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")
        #expect(fx.ledger.expiry(of: SHA256.hash(Fixture.nonce())) == (fx.now + 600 + 60) * 1000)
    }

    @Test("a refused token does not use up its nonce")
    func refusalKeepsNonce() async {
        #expect(await fx.refusal(fx.token { $0["aud"] = "client-x" })?.check == .audience)
        #expect(await fx.failure(fx.token()) == nil)
    }
}
