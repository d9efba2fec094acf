import AuthCore
import Crypto
import Testing
@testable import Gateway
import WireFormats

@Suite("custom tokens: signInWithCustomToken and verifyCustomToken")
struct CustomTokenTests {
    static func signIn(_ gw: TestGateway, _ token: String, legacy: Bool = false) async -> TestGateway.Reply {
        let path = legacy ? "\(Routes.legacyV3)/verifyCustomToken" : "\(TestGateway.v1)/accounts:signInWithCustomToken"
        return await gw.post(path, ["token": .string(token), "returnSecureToken": true])
    }

    @Test("a registered service account's token signs the uid in (created once), provider custom, claims kept on refresh")
    func signInCreatesAndKeepsClaims() async throws {
        let gw = try await TestGateway.make()
        let account = try TestServiceAccount.make()
        try await account.register(with: gw)
        let first = await Self.signIn(gw, try account.customToken(uid: "cu-1", now: gw.nowSeconds, claims: ["premium": true]))
        #expect(first.status == 200)
        #expect(first["kind"] == "identitytoolkit#VerifyCustomTokenResponse" && first["isNewUser"] == true)
        let claims = TestGateway.claims(try #require(first["idToken"]?.stringValue))
        #expect(claims["sub"] == "cu-1" && claims["premium"] == true)
        #expect(claims["firebase"]?["sign_in_provider"] == "custom")
        let refreshed = await gw.refresh(try #require(first["refreshToken"]?.stringValue))
        #expect(TestGateway.claims(try #require(refreshed["id_token"]?.stringValue))["premium"] == true)
        let again = await Self.signIn(gw, try account.customToken(uid: "cu-1", now: gw.nowSeconds), legacy: true)
        #expect(again["isNewUser"] == false)
        #expect(TestGateway.claims(try #require(again["idToken"]?.stringValue))["premium"] == nil)
        #expect(try await gw.store.read { try $0.userCount() } == 1)
    }

    @Test("refused: unknown signer, forged signature, wrong audience, expired, too long-lived, unsigned", arguments: [
        ("stranger", "CREDENTIAL_MISMATCH"), ("forged", "INVALID_CUSTOM_TOKEN"), ("audience", "INVALID_CUSTOM_TOKEN"),
        ("expired", "INVALID_CUSTOM_TOKEN"), ("lifetime", "INVALID_CUSTOM_TOKEN"), ("unsigned", "INVALID_CUSTOM_TOKEN"),
        ("garbage", "INVALID_CUSTOM_TOKEN"), ("subject", "INVALID_CUSTOM_TOKEN"),
    ])
    func refused(_ case_: String, _ code: String) async throws {
        let gw = try await TestGateway.make()
        let account = try TestServiceAccount.make()
        try await account.register(with: gw)
        let now = gw.nowSeconds
        let token: String = switch case_ {
        case "stranger": try TestServiceAccount.make("stranger").customToken(uid: "u", now: now)
        case "forged": try account.customToken(uid: "u", now: now, signer: try RSAPrivateKey.generate(bits: 2048))
        case "audience": try account.customToken(uid: "u", now: now, audience: "test-project")
        case "expired": try account.customToken(uid: "u", now: now - 7200)
        case "lifetime": try account.customToken(uid: "u", now: now, lifetime: 7200)
        case "unsigned": TestServiceAccount.unsigned(["iss": .string(account.email), "sub": .string(account.email),
                                                      "aud": .string(CustomTokenClaims.audience), "uid": "u",
                                                      "iat": .int(now), "exp": .int(now + 60)])
        case "subject": try account.sign(["iss": .string(account.email), "sub": "someone-else",
                                          "aud": .string(CustomTokenClaims.audience), "uid": "u",
                                          "iat": .int(now), "exp": .int(now + 60)])
        default: "garbage"
        }
        let reply = await Self.signIn(gw, token)
        #expect(reply.error?.hasPrefix(code) == true, "\(case_): \(reply.error ?? "no error")")
        #expect(try await gw.store.read { try $0.userCount() } == 0)
    }

    @Test("uid and developer claims are checked as Firebase checks them")
    func claimChecks() async throws {
        let gw = try await TestGateway.make()
        let account = try TestServiceAccount.make()
        try await account.register(with: gw)
        let now = gw.nowSeconds
        func attempt(_ claims: JSONObject) async throws -> String? {
            var payload: JSONObject = ["iss": .string(account.email), "sub": .string(account.email),
                                       "aud": .string(CustomTokenClaims.audience), "iat": .int(now), "exp": .int(now + 600)]
            for (key, value) in claims { payload[key] = value }
            return await Self.signIn(gw, try account.sign(payload)).error
        }
        #expect(try await attempt([:]) == "MISSING_IDENTIFIER")
        #expect(try await attempt(["uid": .string(String(repeating: "u", count: 129))])?.hasPrefix("INVALID_CUSTOM_TOKEN") == true)
        #expect(try await attempt(["uid": "u", "claims": ["sub": "x"]]) == "FORBIDDEN_CLAIM : sub")
        #expect(try await attempt(["uid": "u", "claims": "text"]) == "INVALID_CLAIMS")
        #expect(try await attempt(["uid": "u", "claims": ["big": .string(String(repeating: "b", count: 1000))]]) == "CLAIMS_TOO_LARGE")
        #expect(try await attempt(["uid": "u", "tenant_id": "t1"]) == "TENANT_ID_MISMATCH")
        #expect(await gw.post("\(TestGateway.v1)/accounts:signInWithCustomToken", [:]).error == "MISSING_CUSTOM_TOKEN")
    }

    @Test("a disabled user cannot sign in with a custom token")
    func disabledUser() async throws {
        let gw = try await TestGateway.make()
        let account = try TestServiceAccount.make()
        try await account.register(with: gw)
        _ = await gw.post("\(gw.adminPath)/accounts", ["localId": "off", "disabled": true], key: nil, headers: TestGateway.adminHeaders)
        #expect(await Self.signIn(gw, try account.customToken(uid: "off", now: gw.nowSeconds)).error == "USER_DISABLED")
    }

    @Test("a certificate registered for the account verifies, and a token without kid tries every key (pyrebase)")
    func certificatesAndMissingKid() async throws {
        let gw = try await TestGateway.make()
        let account = try TestServiceAccount.make()
        let certificate = try X509.selfSignedCertificatePEM(
            for: account.key, commonName: "backend", notBefore: .init(timeIntervalSince1970: 0),
            notAfter: .init(timeIntervalSince1970: 4_000_000_000), serialNumber: 7)
        let keys = try RegisteredKeys.parse(#"{"\#(account.keyId)": \#(JSONSerializer.string(.string(certificate)))}"#, keyId: nil)
        try await gw.app.services.serviceAccounts.register(.init(clientEmail: account.email, keys: keys, origin: .registered, createdAt: 0))
        let now = gw.nowSeconds
        let claims: JSONObject = ["iss": .string(account.email), "sub": .string(account.email), "aud": .string(CustomTokenClaims.audience),
                                  "uid": "pyre", "iat": .int(now), "exp": .int(now + 600)]
        let withoutKid = try JWS.signRS256(payload: JSONSerializer.bytes(.object(claims)), key: account.key, kid: nil)
        #expect(await Self.signIn(gw, withoutKid).status == 200)
        #expect(await Self.signIn(gw, try account.sign(claims, kid: "other-kid")).error?.hasPrefix("INVALID_CUSTOM_TOKEN") == true)
    }

    @Test("emulator mode takes unsigned tokens and plain JSON claims, as the Firebase Auth Emulator; only aud is checked")
    func emulatorMode() async throws {
        let gw = try await TestGateway.make { $0.emulator = true }
        let unsigned = TestServiceAccount.unsigned(["iss": "firebase-auth-emulator@example.com", "aud": .string(CustomTokenClaims.audience),
                                                     "uid": "emu-1", "claims": ["role": "x"]])
        let reply = await Self.signIn(gw, unsigned)
        #expect(TestGateway.claims(try #require(reply["idToken"]?.stringValue))["role"] == "x")
        #expect(await Self.signIn(gw, #"{"uid":"emu-2"}"#).status == 200)
        let wrongAudience = TestServiceAccount.unsigned(["aud": "elsewhere", "uid": "emu-3"])
        #expect(await Self.signIn(gw, wrongAudience).error?.hasPrefix("INVALID_CUSTOM_TOKEN") == true)
    }
}
