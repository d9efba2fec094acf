import AuthCore
import Crypto
import Synchronization
import WireFormats

/// The ES256 client secret Apple's `/auth/token` and `/auth/revoke` require: a JWT signed with the Sign in
/// with Apple key (header `kid` = Key ID; claims `iss` = Team ID, `aud` = https://appleid.apple.com,
/// `sub` = client ID, `iat`, `exp`).
///
/// Secrets live a day (Apple allows six months; a short life limits the damage of a leaked one) and are cached
/// per client ID, renewed an hour before they expire.
public final class AppleClientSecret: Sendable {
    static let lifetime: Int64 = 86_400
    static let renewBefore: Int64 = 3_600

    private let teamId: String
    private let keyId: String
    private let key: P256PrivateKey
    private let time: any TimeSource
    private let cache = Mutex<[String: (secret: String, expiresAt: Int64)]>([:])

    /// Throws `CryptoError` when the PEM is not a P-256 PKCS#8 key (what Apple's .p8 files hold).
    public init(teamId: String, keyId: String, privateKeyPEM: String, time: any TimeSource) throws {
        self.teamId = teamId
        self.keyId = keyId
        self.key = try P256PrivateKey(pem: privateKeyPEM)
        self.time = time
    }

    /// A valid secret for `clientId`, from the cache when it has more than an hour left.
    public func secret(for clientId: String) throws -> String {
        let now = time.nowSeconds
        if let cached = cache.withLock({ $0[clientId] }), cached.expiresAt - Self.renewBefore > now {
            return cached.secret
        }
        let claims: JSONObject = ["iss": .string(teamId), "iat": .int(now), "exp": .int(now + Self.lifetime),
                                  "aud": "https://appleid.apple.com", "sub": .string(clientId)]
        let secret = try JWS.signES256(payload: JSONSerializer.bytes(.object(claims)), key: key, kid: keyId, typ: nil)
        cache.withLock { $0[clientId] = (secret, now + Self.lifetime) }
        return secret
    }
}
