import AuthCore
import Crypto
import Outbound
import Synchronization
import WireFormats

/// An in-memory stand-in for Apple's endpoints (`/auth/keys`, `/auth/token`, `/auth/revoke`), signing identity
/// tokens with test keys and recording every request, so provider and gateway tests run without the network.
public final class FakeApple: HTTPFetching, Sendable {
    public static let baseURL = "https://apple.test"
    public static let bundleId = "com.example.app"
    public static let servicesId = "com.example.web"
    public static let teamId = "TEAM123456"
    public static let keyId = "KEY1234567"

    /// Generated once per test process: RSA key generation is the slow part.
    public static let primaryKey = try! RSAPrivateKey.generate()
    public static let rotatedKey = try! RSAPrivateKey.generate()
    public static let clientKey = try! P256PrivateKey.generate()

    private struct State {
        var published: [(String, RSAPrivateKey)] = [("k1", FakeApple.primaryKey)]
        var requests: [OutboundRequest] = []
        var reachable = true
        /// Codes Apple would accept, with the ID token it returns for each.
        var codes: [String: String?] = [:]
        var revoked: [String] = []
    }

    private let state = Mutex(State())

    public init() {}

    // MARK: Controls

    public func publish(_ keys: [(String, RSAPrivateKey)]) { state.withLock { $0.published = keys } }
    public func setReachable(_ reachable: Bool) { state.withLock { $0.reachable = reachable } }
    /// Makes `code` exchangeable once; the exchange returns `idToken` (if any) and refresh token `rt-<code>`.
    public func acceptCode(_ code: String, idToken: String? = nil) { state.withLock { $0.codes[code] = .some(idToken) } }
    public var requests: [OutboundRequest] { state.withLock { $0.requests } }
    public var revokedTokens: [String] { state.withLock { $0.revoked } }
    public func requests(to path: String) -> [OutboundRequest] { requests.filter { $0.url == Self.baseURL + path } }

    /// The config a gateway or provider uses to talk to this stand-in.
    public static func configuration(withKey: Bool = true) -> (bundleIds: [String], servicesIds: [String], teamId: String?,
                                                               keyId: String?, pem: String?) {
        ([bundleId], [servicesId], withKey ? teamId : nil, withKey ? keyId : nil, withKey ? try! clientKey.pkcs8PEM() : nil)
    }

    // MARK: Tokens

    /// Standard claims of a fresh token for `sub`, bound to `rawNonce`.
    public static func claims(sub: String = "001234.apple.user", nonce rawNonce: String?, now: Int64,
                              aud: String = bundleId, email: String? = nil, emailVerified: JSONValue = "true",
                              isPrivate: JSONValue? = nil) -> JSONObject {
        var claims: JSONObject = ["iss": "https://appleid.apple.com", "aud": .string(aud), "exp": .int(now + 600),
                                  "iat": .int(now), "sub": .string(sub), "auth_time": .int(now)]
        if let rawNonce {
            claims["nonce"] = .string(SHA256.hexDigest(rawNonce))
            claims["nonce_supported"] = true
        }
        if let email {
            claims["email"] = .string(email)
            claims["email_verified"] = emailVerified
            claims.set("is_private_email", isPrivate)
        }
        return claims
    }

    public static func sign(_ claims: JSONObject, key: RSAPrivateKey = primaryKey, kid: String = "k1") -> String {
        try! JWS.signRS256(payload: JSONSerializer.bytes(.object(claims)), key: key, kid: kid)
    }

    /// A token with an arbitrary header and signature (alg `none`, HS256 with the public key, …).
    public static func forge(_ claims: JSONObject, header: JSONObject, signature: ([UInt8]) -> [UInt8]) -> String {
        let input = Base64URL.encode(JSONSerializer.bytes(.object(header))) + "." +
            Base64URL.encode(JSONSerializer.bytes(.object(claims)))
        return input + "." + Base64URL.encode(signature(Array(input.utf8)))
    }

    // MARK: HTTPFetching

    public func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        let reachable = state.withLock { s in
            s.requests.append(request)
            return s.reachable
        }
        guard reachable else { throw OutboundError.connectionFailed("stand-in is down") }
        let path = String(request.url.dropFirst(Self.baseURL.count))
        switch (request.method, path) {
        case ("GET", "/auth/keys"): return keys()
        case ("POST", "/auth/token"): return token(form(request))
        case ("POST", "/auth/revoke"): return revoke(form(request))
        default: return OutboundResponse(status: 404)
        }
    }

    private func form(_ request: OutboundRequest) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in FormURLEncoding.decode(String(decoding: request.body, as: UTF8.self)) { fields[name] = value }
        return fields
    }

    private func keys() -> OutboundResponse {
        let jwks = state.withLock { s in
            s.published.map { kid, key -> JSONValue in
                let jwk = JWK(rsa: key.publicKey, kid: kid)
                return ["kty": "RSA", "kid": .string(kid), "alg": "RS256", "use": "sig", "n": .string(jwk.n!),
                        "e": .string(jwk.e!)]
            }
        }
        return OutboundResponse(status: 200, body: JSONSerializer.bytes(["keys": .array(jwks)]))
    }

    /// Accepts only a client secret that is an ES256 JWT from the configured key, for the posted client ID.
    private func clientIsValid(_ fields: [String: String]) -> Bool {
        guard let secret = fields["client_secret"], let jws = try? CompactJWS(parsing: secret),
              jws.header.kid == Self.keyId, jws.isSignatureValid(using: .es256(Self.clientKey.publicKey)),
              case .object(let claims)? = try? JSONParser.parse(jws.payloadBytes),
              claims["iss"] == .string(Self.teamId), claims["aud"] == "https://appleid.apple.com",
              let clientId = fields["client_id"], claims["sub"] == .string(clientId),
              [Self.bundleId, Self.servicesId].contains(clientId)
        else { return false }
        return true
    }

    private func token(_ fields: [String: String]) -> OutboundResponse {
        guard clientIsValid(fields) else { return Self.oauthError("invalid_client") }
        guard fields["grant_type"] == "authorization_code", let code = fields["code"],
              let idToken = state.withLock({ $0.codes.removeValue(forKey: code) })
        else { return Self.oauthError("invalid_grant") }
        var body: JSONObject = ["access_token": .string("at-\(code)"), "token_type": "Bearer", "expires_in": 3600,
                                "refresh_token": .string("rt-\(code)")]
        body.set("id_token", idToken)
        return OutboundResponse(status: 200, body: JSONSerializer.bytes(.object(body)))
    }

    private func revoke(_ fields: [String: String]) -> OutboundResponse {
        guard clientIsValid(fields) else { return Self.oauthError("invalid_client") }
        guard let token = fields["token"] else { return Self.oauthError("invalid_request") }
        state.withLock { $0.revoked.append(token) }
        return OutboundResponse(status: 200)
    }

    private static func oauthError(_ code: String) -> OutboundResponse {
        OutboundResponse(status: 400, body: JSONSerializer.bytes(["error": .string(code)]))
    }
}
