import AuthCore
import Testing
import WireFormats

@Suite("ID token claims and identity projection")
struct ClaimsTests {
    let anonymous = UserRecord(localId: "u1", validSince: 100, createdAt: 100_000, lastLoginAt: 150_000)

    func claims(_ user: UserRecord, identities: [ProviderIdentity] = [], provider: String = "anonymous",
                custom: JSONObject? = nil, extra: JSONObject? = nil) -> JSONObject {
        IDTokenClaims.make(user: user, identities: identities, signInProvider: provider, issuer: "https://iss/p",
                           audience: "p", issuedAt: 200, lifetime: 3600, customClaims: custom, extraClaims: extra)
    }

    @Test("anonymous tokens carry Firebase's claims and provider_id anonymous")
    func anonymousClaims() {
        let c = claims(anonymous)
        #expect(c.keys == ["iss", "aud", "auth_time", "user_id", "sub", "iat", "exp", "provider_id", "firebase"])
        #expect(c["sub"] == "u1" && c["user_id"] == "u1")
        #expect(c["auth_time"] == .int(150))
        #expect(c["exp"] == .int(3800))
        #expect(c["provider_id"] == "anonymous")
        #expect(c["firebase"] == ["identities": [:], "sign_in_provider": "anonymous"])
    }

    @Test("non-anonymous tokens have no provider_id and list email and federated identities")
    func identities() {
        var user = anonymous
        user.email = "a@example.com"
        user.emailVerified = true
        let apple = ProviderIdentity(providerId: "apple.com", federatedId: "001.abc", localId: "u1", linkedAt: 1)
        let c = claims(user, identities: [apple], provider: "apple.com")
        #expect(c["provider_id"] == nil)
        #expect(c["email"] == "a@example.com" && c["email_verified"] == true)
        #expect(c["firebase"]?["identities"] == ["email": ["a@example.com"], "apple.com": ["001.abc"]])
    }

    @Test("developer claims are merged but can never replace reserved or identity claims")
    func customClaims() {
        var user = anonymous
        user.displayName = "Ann"
        let custom: JSONObject = ["role": "admin", "sub": "evil", "user_id": "evil", "firebase": "x", "name": "Boss"]
        let c = claims(user, custom: custom, extra: ["role": "editor", "iss": "evil"])
        #expect(c["role"] == "editor")
        #expect(c["sub"] == "u1" && c["user_id"] == "u1" && c["iss"] == "https://iss/p")
        #expect(c["name"] == "Boss")
        #expect(c["firebase"]?["sign_in_provider"] == "anonymous")
    }

    @Test("providerUserInfo and firebase.identities come from the same rows")
    func projectionsAgree() {
        var user = anonymous
        user.email = "a@example.com"
        user.password = PasswordCredential(algorithm: "scrypt", parameters: "{}", hash: [1], salt: [2])
        user.phoneNumber = "+15555550100"
        let fb = ProviderIdentity(providerId: "facebook.com", federatedId: "fb1", localId: "u1", linkedAt: 1)
        let infos = IdentityProjection.providerInfos(user: user, identities: [fb])
        #expect(infos.map(\.providerId) == ["password", "phone", "facebook.com"])
        let claim = IdentityProjection.identitiesClaim(user: user, identities: [fb])
        #expect(claim.keys == ["email", "phone", "facebook.com"])
        #expect(!claim.keys.contains("password"))
    }
}
