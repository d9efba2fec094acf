import AuthCore
import Crypto
import OIDCTestSupport
import ProviderKit
@testable import ProviderOIDC
import Testing
import WireFormats

/// `signInWithIdp` with an `id_token`: one named test per check, each failing if the check is removed.
@Suite("OIDC id_token sign-in")
struct IDTokenTests {
    @Test("a valid token signs in: keys and issuer found through discovery, claims mapped, token echoed")
    func valid() async throws {
        let f = OIDCFixture()
        let token = FakeOIDCIssuer.sign(f.issuer.claims(now: f.now, email: "Ada@Example.com"))
        let identity = try await f.signIn(idToken: token)
        #expect(identity.providerId == "oidc.test" && identity.subject == "user-1")
        #expect(identity.email == .verifiedNotForLinking("ada@example.com"), "verified, but linking is off by default")
        #expect(identity.echoedCredential == ["oauthIdToken": token])
        #expect(try JSONParser.parse(Array((identity.rawUserInfo ?? "").utf8))["sub"] == "user-1")
        #expect(f.issuer.requests(to: "/.well-known/openid-configuration").count == 1 && f.issuer.requests(to: "/jwks").count == 1)
    }

    @Test("every configured client id is an accepted audience; another is refused")
    func audience() async {
        let f = OIDCFixture()
        #expect(await f.refusedCheck { try await f.signIn(idToken: FakeOIDCIssuer.sign(f.issuer.claims(aud: "ios-client", now: f.now))) } == nil)
        let other = FakeOIDCIssuer.sign(f.issuer.claims(aud: "someone-else", now: f.now))
        let refusal = await f.refusal { try await f.signIn(idToken: other) }
        #expect(refusal?.check == .audience)
        #expect(refusal?.error == AuthError(.invalidIdpResponse, "id_token audience is not a configured client ID"))
    }

    @Test("a token from another issuer is refused; an alias is accepted only when configured")
    func issuer() async {
        let f = OIDCFixture()
        var claims = f.issuer.claims(now: f.now)
        claims["iss"] = "idp.test"
        #expect(await f.refusedCheck { try await f.signIn(idToken: FakeOIDCIssuer.sign(claims)) } == .issuer)
        let aliased = OIDCFixture { $0.issuerAliases = ["idp.test"] }
        var aliasClaims = aliased.issuer.claims(now: aliased.now)
        aliasClaims["iss"] = "idp.test"
        #expect(await aliased.refusedCheck { try await aliased.signIn(idToken: FakeOIDCIssuer.sign(aliasClaims)) } == nil)
    }

    @Test("an algorithm the provider does not pin is refused, even with a published key for it")
    func algorithm() async {
        let f = OIDCFixture()
        f.issuer.publish(rsa: [("k1", FakeOIDCIssuer.primaryKey)], ec: [("e1", FakeOIDCIssuer.ecKey)])
        let es256 = FakeOIDCIssuer.signES256(f.issuer.claims(now: f.now))
        #expect(await f.refusedCheck { try await f.signIn(idToken: es256) } == .algorithm)
        let both = OIDCFixture { $0.algorithms = [.rs256, .es256] }
        both.issuer.publish(rsa: [], ec: [("e1", FakeOIDCIssuer.ecKey)])
        #expect(await both.refusedCheck { try await both.signIn(idToken: FakeOIDCIssuer.signES256(both.issuer.claims(now: both.now))) } == nil)
    }

    @Test("an expired token and one older than the maximum age are refused")
    func times() async {
        let f = OIDCFixture { $0.maxTokenAgeSeconds = 300 }
        var expired = f.issuer.claims(now: f.now - 7200)
        expired["exp"] = .int(f.now - 120)
        #expect(await f.refusedCheck { try await f.signIn(idToken: FakeOIDCIssuer.sign(expired)) } == .expiry)
        let old = f.issuer.claims(now: f.now - 400)
        #expect(await f.refusedCheck { try await f.signIn(idToken: FakeOIDCIssuer.sign(old)) } == .age)
    }

    @Test("a forged signature is refused")
    func signature() async {
        let f = OIDCFixture()
        let forged = FakeOIDCIssuer.sign(f.issuer.claims(now: f.now), key: FakeOIDCIssuer.rotatedKey, kid: "k1")
        #expect(await f.refusedCheck { try await f.signIn(idToken: forged) } == .signature)
    }

    @Test("nonce: a bound token needs its nonce, the claim must be its SHA-256, and each nonce works once")
    func nonce() async {
        let f = OIDCFixture()
        let raw = Nonces.fresh()
        let bound = FakeOIDCIssuer.sign(f.issuer.claims(nonce: raw, now: f.now))
        #expect(await f.refusedCheck { try await f.signIn(idToken: bound) } == .nonce, "nonce missing from the request")
        #expect(await f.refusedCheck { try await f.signIn(idToken: bound, nonce: Nonces.fresh()) } == .nonce, "mismatched")
        let unbound = FakeOIDCIssuer.sign(f.issuer.claims(sub: "u2", now: f.now))
        #expect(await f.refusedCheck { try await f.signIn(idToken: unbound, nonce: Nonces.fresh()) } == .nonce,
                "a raw nonce with a token that carries none")
        #expect(await f.refusedCheck { try await f.signIn(idToken: bound, nonce: raw) } == nil)
        let again = FakeOIDCIssuer.sign(f.issuer.claims(sub: "u3", nonce: raw, now: f.now))
        let replay = await f.refusal { try await f.signIn(idToken: again, nonce: raw) }
        #expect(replay?.check == .replay && replay?.error.code == .missingOrInvalidNonce)
    }

    @Test("with nonce.required, a token without any nonce is refused; acceptRaw takes an unhashed claim")
    func nonceSettings() async {
        let required = OIDCFixture { $0.nonceRequired = true }
        let plain = FakeOIDCIssuer.sign(required.issuer.claims(now: required.now))
        #expect(await required.refusedCheck { try await required.signIn(idToken: plain) } == .nonce)
        let optional = OIDCFixture()
        #expect(await optional.refusedCheck { try await optional.signIn(idToken: plain) } == nil)

        let raw = Nonces.fresh()
        var claims = optional.issuer.claims(sub: "raw", now: optional.now)
        claims["nonce"] = .string(raw)
        #expect(await optional.refusedCheck { try await optional.signIn(idToken: FakeOIDCIssuer.sign(claims), nonce: raw) } == .nonce)
        let lenient = OIDCFixture { $0.acceptsRawNonce = true }
        #expect(await lenient.refusedCheck { try await lenient.signIn(idToken: FakeOIDCIssuer.sign(claims), nonce: raw) } == nil)
    }

    @Test("key rotation: a new kid is fetched once; unknown kids refetch at most once per interval")
    func rotation() async {
        let f = OIDCFixture { $0.keyRefreshIntervalSeconds = 60 }
        #expect(await f.refusedCheck { try await f.signIn(idToken: FakeOIDCIssuer.sign(f.issuer.claims(now: f.now))) } == nil)
        f.time.advance(seconds: 61)
        f.issuer.publish(rsa: [("k1", FakeOIDCIssuer.primaryKey), ("k2", FakeOIDCIssuer.rotatedKey)])
        let rotated = FakeOIDCIssuer.sign(f.issuer.claims(sub: "r", now: f.now), key: FakeOIDCIssuer.rotatedKey, kid: "k2")
        #expect(await f.refusedCheck { try await f.signIn(idToken: rotated) } == nil)
        #expect(f.issuer.requests(to: "/jwks").count == 2)
        for n in 0..<5 {
            let forged = FakeOIDCIssuer.sign(f.issuer.claims(sub: "x\(n)", now: f.now), kid: "forged-\(n)")
            #expect(await f.refusedCheck { try await f.signIn(idToken: forged) } == .unknownKey)
        }
        #expect(f.issuer.requests(to: "/jwks").count == 2, "no refetch within the interval")
        f.time.advance(seconds: 61)
        _ = await f.refusedCheck { try await f.signIn(idToken: FakeOIDCIssuer.sign(f.issuer.claims(now: f.now), kid: "forged-x")) }
        #expect(f.issuer.requests(to: "/jwks").count == 3)
    }

    @Test("a mapped subject claim is the identity's id; a token without it is refused")
    func mappedSubject() async throws {
        let f = OIDCFixture { $0.claims = ClaimNames(subject: "oid", email: "mail", displayName: "nickname") }
        var claims = f.issuer.claims(now: f.now)
        claims["oid"] = "object-7"
        claims["mail"] = "grace@example.com"
        claims["nickname"] = "Grace"
        let identity = try await f.signIn(idToken: FakeOIDCIssuer.sign(claims))
        #expect(identity.subject == "object-7" && identity.displayName == "Grace")
        #expect(identity.email?.address == "grace@example.com")
        let without = FakeOIDCIssuer.sign(f.issuer.claims(sub: "s", now: f.now))
        #expect(await f.refusedCheck { try await f.signIn(idToken: without) } == .format)
    }

    @Test("a disabled provider refuses with OPERATION_NOT_ALLOWED")
    func disabled() async {
        let f = OIDCFixture { $0.enabled = false }
        do {
            _ = try await f.signIn(idToken: "x")
            Issue.record("accepted")
        } catch {
            #expect(error as? AuthError == AuthError(.operationNotAllowed))
        }
    }

    @Test("no credential at all is refused as missing")
    func missing() async {
        let f = OIDCFixture()
        #expect(await f.refusedCheck { try await f.signIn(["providerId": "oidc.test"]) } == .missing)
    }
}

/// Whether an address may link accounts: a pure decision, tested exhaustively.
@Suite("OIDC email trust")
struct EmailLinkingTests {
    @Test("unverified never links; verified links only when switched on, within the domains or the hosted domain")
    func rules() {
        let none = EmailLinking()
        #expect(none.email("a@x.com", verified: false, claims: [:]) == .untrusted("a@x.com"))
        #expect(none.email("A@X.com", verified: true, claims: [:]) == .verifiedNotForLinking("a@x.com"))
        #expect(none.email(nil, verified: true, claims: [:]) == nil)
        let all = EmailLinking(verifiedEmails: true)
        #expect(all.email("a@x.com", verified: true, claims: [:]) == .trusted("a@x.com"))
        #expect(all.email("a@x.com", verified: false, claims: [:]) == .untrusted("a@x.com"))
        let google = EmailLinking(verifiedEmails: true, domains: ["gmail.com"], hostedDomainClaim: "hd")
        #expect(google.email("a@gmail.com", verified: true, claims: [:]) == .trusted("a@gmail.com"))
        #expect(google.email("a@corp.com", verified: true, claims: [:]) == .verifiedNotForLinking("a@corp.com"))
        #expect(google.email("a@corp.com", verified: true, claims: ["hd": "corp.com"]) == .trusted("a@corp.com"))
        #expect(google.email("a@corp.com", verified: true, claims: ["hd": "other.com"]) == .verifiedNotForLinking("a@corp.com"))
    }

    @Test("email_verified as a string counts like a boolean")
    func stringFlag() {
        #expect(ClaimMapping.flag("true") && ClaimMapping.flag(.bool(true)))
        #expect(!ClaimMapping.flag("false") && !ClaimMapping.flag(nil) && !ClaimMapping.flag(.int(1)))
    }
}
