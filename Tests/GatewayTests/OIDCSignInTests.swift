import AuthCore
import Crypto
import OIDCTestSupport
import Storage
import Testing
@testable import Gateway
import WireFormats

/// OpenID Connect providers and Google through the whole gateway: configuration, sign-in, linking, redirect.
@Suite("OIDC and Google through the gateway")
struct OIDCSignInTests {
    let idpA = FakeOIDCIssuer(base: "https://idp-a.test", clientId: "client-a")
    let idpB = FakeOIDCIssuer(base: "https://idp-b.test", clientId: "client-b")
    let google = FakeOIDCIssuer(base: "https://google.test", clientId: "web.apps.googleusercontent.com")

    func gateway(linkA: Bool = false, _ configure: (inout GatewayConfiguration) -> Void = { _ in }) async throws -> TestGateway {
        try await TestGateway.make(fetcher: IssuerRouter(issuers: [idpA, idpB, google])) { config in
            config.setPluginValue("oidc.providers", [
                TestGateway.oidcEntry("oidc.a", idpA, ["emailLinking": ["verifiedEmails": .bool(linkA)]]),
                TestGateway.oidcEntry("oidc.b", idpB, ["displayName": "B Corp"]),
            ])
            config.pluginSections["google"] = TestGateway.googleSection(google)
            configure(&config)
        }
    }

    func token(_ issuer: FakeOIDCIssuer, _ gw: TestGateway, sub: String = "user-1", email: String? = nil,
               verified: Bool = true) -> String {
        FakeOIDCIssuer.sign(issuer.claims(sub: sub, now: gw.time.nowSeconds, email: email, emailVerified: .bool(verified)))
    }

    func googleToken(_ gw: TestGateway, sub: String, email: String? = nil, hd: String? = nil) -> String {
        var claims = google.claims(sub: sub, now: gw.time.nowSeconds, email: email)
        claims["iss"] = "accounts.google.com"
        claims.set("hd", hd)
        return FakeOIDCIssuer.sign(claims)
    }

    @Test("two providers configured at once each sign in with their own tokens and refuse the other's")
    func twoProviders() async throws {
        let gw = try await gateway()
        let a = await gw.signInWithOIDC("oidc.a", token: token(idpA, gw))
        #expect(a.status == 200 && a["providerId"] == "oidc.a" && a["isNewUser"] == true)
        let b = await gw.signInWithOIDC("oidc.b", token: token(idpB, gw))
        #expect(b.status == 200 && b["localId"] != a["localId"], "same sub at another provider is another person")
        let crossed = await gw.signInWithOIDC("oidc.b", token: token(idpA, gw, sub: "x"))
        #expect(crossed.error == "INVALID_IDP_RESPONSE : id_token issuer is not B Corp")
        let again = await gw.signInWithOIDC("oidc.a", token: token(idpA, gw))
        #expect(again["localId"] == a["localId"] && again["isNewUser"] == nil)
        let claims = TestGateway.claims(try #require(again["idToken"]?.stringValue))
        #expect(claims["firebase"]?["sign_in_provider"] == "oidc.a")
    }

    @Test("an unverified email meets an existing account: needConfirmation, nothing linked")
    func unverifiedEmail() async throws {
        let gw = try await gateway(linkA: true)
        let owner = await gw.signInWithIdp(sub: "t1", email: "ada@example.com", trusted: true)
        let attempt = await gw.signInWithOIDC("oidc.a", token: token(idpA, gw, email: "ada@example.com", verified: false))
        #expect(attempt.status == 200 && attempt["needConfirmation"] == true && attempt["idToken"] == nil)
        #expect(attempt["localId"] == owner["localId"] && attempt["verifiedProvider"] == ["test.example"])
    }

    @Test("a verified email links only where the provider's email linking is on")
    func verifiedEmail() async throws {
        let gw = try await gateway(linkA: true)
        let owner = await gw.signInWithIdp(sub: "t1", email: "ada@example.com", trusted: true)
        let linked = await gw.signInWithOIDC("oidc.a", token: token(idpA, gw, email: "ada@example.com"))
        #expect(linked.status == 200 && linked["localId"] == owner["localId"] && linked["emailVerified"] == true)
        let other = await gw.signInWithOIDC("oidc.b", token: token(idpB, gw, email: "ada@example.com"))
        #expect(other["needConfirmation"] == true, "oidc.b keeps the default: verified, but never links")
        #expect(other["emailVerified"] == true)
    }

    @Test("Google id_token: either issuer, the app's client ids, gmail addresses link, others do not")
    func googleIdToken() async throws {
        let gw = try await gateway()
        let owner = await gw.signInWithIdp(sub: "t1", email: "ada@gmail.com", trusted: true)
        let gmail = await gw.signInWithOIDC("google.com", token: googleToken(gw, sub: "g-1", email: "ada@gmail.com"))
        #expect(gmail.status == 200 && gmail["localId"] == owner["localId"] && gmail["providerId"] == "google.com")
        var https = google.claims(sub: "g-2", now: gw.time.nowSeconds)
        https["iss"] = "https://accounts.google.com"
        #expect(await gw.signInWithOIDC("google.com", token: FakeOIDCIssuer.sign(https)).status == 200)

        _ = await gw.signInWithIdp(sub: "t2", email: "bob@corp.example", trusted: true)
        let corp = await gw.signInWithOIDC("google.com", token: googleToken(gw, sub: "g-3", email: "bob@corp.example"))
        #expect(corp["needConfirmation"] == true)
        let workspace = await gw.signInWithOIDC("google.com", token: googleToken(gw, sub: "g-4", email: "bob@corp.example", hd: "corp.example"))
        #expect(workspace.status == 200 && workspace["needConfirmation"] == nil, "Workspace: Google hosts the domain")
    }

    @Test("Google id_token with a nonce claim: accepted without a raw nonce (Firebase's Google credentials send none), checked with one")
    func googleNonce() async throws {
        let gw = try await gateway()
        let raw = "raw-nonce-0123456789abcdef"
        // Google Sign-In for iOS puts a nonce of its own in the token; Android's getCredential(idToken, null) and
        // the JS SDK's GoogleAuthProvider.credential(idToken) cannot send it.
        func bound(_ sub: String) -> String {
            var claims = google.claims(sub: sub, nonce: raw, now: gw.time.nowSeconds)
            claims["iss"] = "https://accounts.google.com"
            return FakeOIDCIssuer.sign(claims)
        }
        let unsent = bound("g-n1")
        #expect(await gw.signInWithOIDC("google.com", token: unsent).status == 200)
        #expect(await gw.signInWithOIDC("google.com", token: unsent).status == 200, "without a raw nonce nothing is spent")
        let wrong = bound("g-n2")
        #expect(await gw.signInWithOIDC("google.com", token: wrong, nonce: "another-raw-nonce-0123456789").error
                == "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
        #expect(await gw.signInWithOIDC("google.com", token: wrong, nonce: raw).status == 200)
        #expect(await gw.signInWithOIDC("google.com", token: wrong, nonce: raw).error?.hasPrefix("MISSING_OR_INVALID_NONCE : Duplicate") == true)
        // Other OpenID Connect providers keep "both or neither".
        let generic = FakeOIDCIssuer.sign(idpA.claims(sub: "a-n1", nonce: raw, now: gw.time.nowSeconds))
        #expect(await gw.signInWithOIDC("oidc.a", token: generic).error == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
    }

    @Test("Google access_token: checked at token info (audience), profile from UserInfo")
    func googleAccessToken() async throws {
        let gw = try await gateway()
        let info: JSONObject = ["aud": .string(google.clientId), "sub": "g-9", "exp": .string(String(gw.time.nowSeconds + 600)),
                                "email": "nine@gmail.com", "email_verified": "true"]
        google.grantAccessToken("ya29.good", userInfo: ["sub": "g-9", "name": "Nine"], tokenInfo: info)
        let signedIn = await gw.signInWithIdp([("providerId", "google.com"), ("access_token", "ya29.good")])
        #expect(signedIn.status == 200 && signedIn["displayName"] == "Nine" && signedIn["oauthAccessToken"] == "ya29.good")
        var foreign = info
        foreign["aud"] = "another-app.apps.googleusercontent.com"
        google.grantAccessToken("ya29.foreign", userInfo: ["sub": "g-9"], tokenInfo: foreign)
        let refused = await gw.signInWithIdp([("providerId", "google.com"), ("access_token", "ya29.foreign")])
        #expect(refused.error == "INVALID_IDP_RESPONSE : access_token audience is not a configured client ID")
    }

    @Test("a google.com identity imported from Firebase keeps signing in to its account")
    func importedGoogleUser() async throws {
        let gw = try await gateway()
        let now = gw.time.nowMilliseconds
        try await gw.store.write { tx in
            try tx.insertUser(UserRecord(localId: "imported-uid", email: "imp@gmail.com", emailVerified: true,
                                         validSince: now / 1000, createdAt: now - 86_400_000))
            try tx.insertIdentity(ProviderIdentity(providerId: "google.com", federatedId: "108123456789", localId: "imported-uid",
                                                   email: "imp@gmail.com", linkedAt: now - 86_400_000))
        }
        let signedIn = await gw.signInWithOIDC("google.com", token: googleToken(gw, sub: "108123456789", email: "imp@gmail.com"))
        #expect(signedIn.status == 200 && signedIn["localId"] == "imported-uid" && signedIn["isNewUser"] == nil)
    }

    @Test("microsoft.com through its preset: the tenant's issuer, oid as the user id, and an email that never links")
    func microsoft() async throws {
        let entra = FakeOIDCIssuer(base: "https://login.test/tenant-1/v2.0", clientId: "ms-app")
        let elsewhere = FakeOIDCIssuer(base: "https://login.test/tenant-2/v2.0", clientId: "ms-app")
        let gw = try await TestGateway.make(fetcher: IssuerRouter(issuers: [entra, elsewhere])) { config in
            config.pluginSections["microsoft"] = ["enabled": true, "tenant": "tenant-1", "authority": "https://login.test",
                                                  "clientIds": ["ms-app"]]
        }
        func token(_ issuer: FakeOIDCIssuer = entra, sub: String, oid: String?, email: String? = nil) -> String {
            var claims = issuer.claims(sub: sub, now: gw.time.nowSeconds, email: email)
            claims.set("oid", oid)
            return FakeOIDCIssuer.sign(claims)
        }
        let first = await gw.signInWithOIDC("microsoft.com", token: token(sub: "per-app-sub-1", oid: "oid-1"))
        #expect(first.status == 200 && first["providerId"] == "microsoft.com" && first["isNewUser"] == true)
        #expect(first["federatedId"] == "oid-1", "the Graph object id, not the per-app sub")
        let again = await gw.signInWithOIDC("microsoft.com", token: token(sub: "per-app-sub-2", oid: "oid-1"))
        #expect(again["localId"] == first["localId"] && again["isNewUser"] == nil, "same oid, same person, whatever the sub")
        let noOid = await gw.signInWithOIDC("microsoft.com", token: token(sub: "per-app-sub-3", oid: nil))
        #expect(noOid.error == "INVALID_IDP_RESPONSE : id_token has no oid claim")
        let otherTenant = await gw.signInWithOIDC("microsoft.com", token: token(elsewhere, sub: "s", oid: "oid-9"))
        #expect(otherTenant.error == "INVALID_IDP_RESPONSE : id_token issuer is not Microsoft")
        // Entra does not verify `email`: even marked verified, it never links to the account that holds it.
        let owner = await gw.signInWithIdp(sub: "t1", email: "ada@contoso.example", trusted: true)
        let sameEmail = await gw.signInWithOIDC("microsoft.com", token: token(sub: "s4", oid: "oid-4", email: "ada@contoso.example"))
        #expect(sameEmail["needConfirmation"] == true && sameEmail["localId"] == owner["localId"] && sameEmail["idToken"] == nil)
        let stored = try await gw.store.read { try $0.identity(providerId: "microsoft.com", federatedId: "oid-4") }
        #expect(stored == nil, "nothing linked")
    }

    @Test("the redirect flow with PKCE: createAuthUri, the provider's answer in the query, signInWithIdp")
    func redirect() async throws {
        let gw = try await gateway { $0.environment["GATEHOUSE_OIDC_A_CLIENT_SECRET"] = "s3cret" }
        let started = await gw.post("\(TestGateway.v1)/accounts:createAuthUri",
                                    ["providerId": "oidc.a", "continueUri": "http://localhost/done"])
        let authUri = try #require(started["authUri"]?.stringValue)
        #expect(authUri.hasPrefix("https://idp-a.test/authorize?"))
        let q = { (name: String) in URLQuery.value(name, in: authUri) ?? "" }
        var claims = idpA.claims(sub: "web-7", now: gw.time.nowSeconds)
        claims["nonce"] = .string(q("nonce"))
        idpA.issueCode("code-7", idToken: FakeOIDCIssuer.sign(claims), challenge: q("code_challenge"), redirectUri: q("redirect_uri"))
        let relayed = await gw.send("GET", "/__/auth/handler?" + FormURLEncoding.encode([("state", q("state")), ("code", "code-7")]))
        #expect(relayed.status == 303)
        let location = try #require(relayed.headers["location"])
        #expect(location.hasPrefix("http://localhost/done#"))
        let finished = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
            "requestUri": .string(location), "sessionId": started["sessionId"] ?? .null, "returnSecureToken": true])
        #expect(finished.status == 200 && finished["providerId"] == "oidc.a" && finished["idToken"] != nil)
        #expect(idpA.requests(to: "/token").count == 1)
    }
}
