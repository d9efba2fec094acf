import AuthCore
import Crypto
import Foundation
@testable import Gateway
import WireFormats

/// A service account for tests: a fresh RSA key, registered with a gateway (or not, to play a stranger), and
/// the JWTs a backend would sign with it.
struct TestServiceAccount {
    let email: String
    let keyId: String
    let key: RSAPrivateKey

    static func make(_ name: String = "backend", project: String = "test-project") throws -> TestServiceAccount {
        TestServiceAccount(email: "\(name)@\(project).iam.gserviceaccount.com", keyId: "kid-\(name)",
                           key: try RSAPrivateKey.generate(bits: 2048))
    }

    var record: ServiceAccount {
        get throws {
            ServiceAccount(clientEmail: email, keys: [.init(keyId: keyId, publicPEM: try key.publicKey.spkiPEM())],
                           origin: .registered, createdAt: 0)
        }
    }

    func register(with gw: TestGateway) async throws {
        try await gw.app.services.serviceAccounts.register(try record)
    }

    /// A JWT with `claims`, signed by this account's key (or `signer` instead, to forge one).
    func sign(_ claims: JSONObject, kid: String? = nil, signer: RSAPrivateKey? = nil) throws -> String {
        try JWS.signRS256(payload: JSONSerializer.bytes(.object(claims)), key: signer ?? key, kid: kid ?? keyId)
    }

    /// A JWT-bearer grant assertion as google-auth makes it (aud: Google's token endpoint).
    func assertion(now: Int64, lifetime: Int64 = 3600, audience: String = JWTBearerGrant.googleAudience,
                   signer: RSAPrivateKey? = nil) throws -> String {
        try sign(["iss": .string(email), "aud": .string(audience), "scope": "https://www.googleapis.com/auth/cloud-platform",
                  "iat": .int(now), "exp": .int(now + lifetime)], signer: signer)
    }

    /// A custom token as firebase-admin's `create_custom_token` makes it.
    func customToken(uid: String, now: Int64, claims: JSONObject? = nil, lifetime: Int64 = 3600,
                     audience: String = CustomTokenClaims.audience, signer: RSAPrivateKey? = nil) throws -> String {
        var payload: JSONObject = ["iss": .string(email), "sub": .string(email), "aud": .string(audience),
                                   "uid": .string(uid), "iat": .int(now), "exp": .int(now + lifetime)]
        payload.set("claims", claims.map(JSONValue.object))
        return try sign(payload, signer: signer)
    }
}

extension TestGateway {
    var nowSeconds: Int64 { time.nowMilliseconds / 1000 }

    /// `POST /oauth2.googleapis.com/token` with a form body, as google-auth sends it.
    func grant(assertion: String, grantType: String = JWTBearerGrant.grantType) async -> Reply {
        let body = FormURLEncoding.encode([("grant_type", grantType), ("assertion", assertion)])
        return await send("POST", JWTBearerGrant.path, body: body,
                          headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Host", "gw.test")])
    }

    /// An admin lookup with `Authorization: Bearer <token>`.
    func adminLookup(bearer token: String, from address: String = "127.0.0.1") async -> Reply {
        await post("\(adminPath)/accounts:lookup", ["localId": ["nobody"]], key: nil,
                   headers: [("Authorization", "Bearer \(token)")], from: address)
    }
}
