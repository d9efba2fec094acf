import Crypto
import Federation
import ProviderKit
import Testing
import WireFormats

/// The checks before the claims are read: one test per check, each failing if its check is removed.
@Suite("Federated tokens: shape, algorithm, key and signature")
struct SignatureCheckTests {
    let fx = Fixture()

    @Test("RS256 and ES256 tokens from the published keys verify, and say what signed them")
    func bothAlgorithms() async throws {
        let rsa = try await fx.verifier.verify(fx.token(.rsa, nonce: 1), rawNonce: Fixture.nonce(1))
        #expect(rsa.algorithm == .rs256 && rsa.keyId == "rsa-1" && rsa.subject == "user-1" && rsa.audience == "client-a")
        let ec = try await fx.verifier.verify(fx.token(.ec, nonce: 2), rawNonce: Fixture.nonce(2))
        #expect(ec.algorithm == .es256 && ec.keyId == "ec-1" && ec.issuer == FakeIssuer.issuer)
        #expect(ec.expiresAt == fx.now + 600 && ec.issuedAt == fx.now && ec.claims["sub"] == "user-1")
    }

    @Test("format: not a compact JWS")
    func notCompact() async {
        let refusal = await fx.refusal("not.a.jwt")
        #expect(refusal?.check == .format)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : Unable to parse id_token: not a compact JWS")
        #expect(fx.issuer.fetches(of: FakeIssuer.jwksURL) == 0, "nothing is fetched for garbage")
    }

    @Test("format: a payload that is not a JSON object")
    func payloadNotObject() async {
        guard case .rsa(let key) = TestKey.rsa.material else { return }
        let token = try! JWS.signRS256(payload: Array("[1,2]".utf8), key: key, kid: "rsa-1")
        let refusal = await fx.refusal(token)
        #expect(refusal?.check == .format)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : Unable to parse id_token: payload is not a JSON object")
    }

    @Test("algorithm: none is refused before any key is fetched")
    func algNone() async {
        let refusal = await fx.refusal(forge(fx.claims(), header: ["alg": "none", "kid": "rsa-1"]) { _ in [] })
        #expect(refusal?.check == .algorithm)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token must be signed with ES256 or RS256, not none")
        #expect(fx.issuer.fetches(of: FakeIssuer.jwksURL) == 0)
    }

    @Test("algorithm: HS256 keyed with the published public key is refused")
    func hs256WithPublicKey() async throws {
        guard case .rsa(let key) = TestKey.rsa.material else { return }
        let secret = Array(try key.publicKey.spkiPEM().utf8)
        let token = forge(fx.claims(), header: ["alg": "HS256", "kid": "rsa-1"]) { HMACSHA256.authenticate(key: secret, message: $0) }
        #expect(await fx.refusal(token)?.check == .algorithm)
    }

    @Test("algorithm: a real RS256 token is refused where the provider pins ES256")
    func algorithmNotPinned() async {
        let esOnly = Fixture { $0.algorithms = [.es256] }
        let refusal = await esOnly.refusal(esOnly.token(.rsa))
        #expect(refusal?.check == .algorithm)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token must be signed with ES256, not RS256")
    }

    @Test("algorithm: an RS256 token naming an EC key's kid is refused as algorithm confusion, not tried")
    func algorithmDoesNotMatchKey() async {
        let refusal = await fx.refusal(TestKey.rsa.sign(fx.claims(), kid: "ec-1"))
        #expect(refusal?.check == .algorithm)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token names RS256 but its key is for ES256")
        let reverse = await fx.refusal(TestKey.ec.sign(fx.claims(), kid: "rsa-1"))
        #expect(reverse?.error.message == "INVALID_IDP_RESPONSE : id_token names ES256 but its key is for RS256")
    }

    @Test("unknown key: a token without kid")
    func missingKid() async {
        let refusal = await fx.refusal(forge(fx.claims(), header: ["alg": "RS256"]) { _ in [] })
        #expect(refusal?.check == .unknownKey)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token has no kid")
    }

    @Test("unknown key: a kid the provider does not publish, with no fallback to a published key")
    func unknownKid() async {
        let refusal = await fx.refusal(TestKey.rsa.sign(fx.claims(), kid: "forged"))
        #expect(refusal?.check == .unknownKey)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token was signed with a key Test IdP does not publish")
    }

    @Test("key fetch: keys that cannot be fetched")
    func keysUnavailable() async {
        fx.issuer.setReachable(false)
        let refusal = await fx.refusal(fx.token())
        #expect(refusal?.check == .keyFetch)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : Test IdP's public keys could not be fetched; try again")
    }

    @Test("signature: another key's signature under a published kid")
    func badSignature() async {
        let refusal = await fx.refusal(TestKey.rsaRotated.sign(fx.claims(), kid: "rsa-1"))
        #expect(refusal?.check == .signature)
        #expect(refusal?.error.message == "INVALID_IDP_RESPONSE : id_token signature is invalid")
        #expect(await fx.refusal(TestKey.ecOther.sign(fx.claims(), kid: "ec-1"))?.check == .signature)
    }

    @Test("every refusal is reported for the policy's provider")
    func provider() async {
        #expect(await fx.refusal("x")?.provider == Fixture.provider)
    }
}
