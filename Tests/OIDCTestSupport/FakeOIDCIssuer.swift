import AuthCore
import Crypto
import Outbound
import Synchronization
import WireFormats

/// An in-memory OpenID Connect provider at `base`: discovery, a JWKS (rotatable), a token endpoint that checks
/// the client's credentials and the PKCE verifier, UserInfo, and Google-style token info. It signs ID tokens
/// with test keys and records every request, so provider and gateway tests run without a network or a clock.
public final class FakeOIDCIssuer: HTTPFetching, Sendable {
    /// Generated once per test process: RSA key generation is the slow part.
    public static let primaryKey = try! RSAPrivateKey.generate()
    public static let rotatedKey = try! RSAPrivateKey.generate()
    public static let ecKey = try! P256PrivateKey.generate()

    public let base: String
    public let clientId: String
    public let clientSecret: String

    /// What a code is good for: the ID token it returns and the PKCE challenge it was issued under.
    public struct IssuedCode: Sendable {
        public var idToken: String
        public var challenge: String
        public var redirectUri: String
    }

    private struct State {
        var rsaKeys: [(String, RSAPrivateKey)] = [("k1", FakeOIDCIssuer.primaryKey)]
        var ecKeys: [(String, P256PrivateKey)] = [("e1", FakeOIDCIssuer.ecKey)]
        var requests: [OutboundRequest] = []
        var reachable = true
        var codes: [String: IssuedCode] = [:]
        /// Access token → UserInfo claims.
        var userInfo: [String: JSONObject] = [:]
        /// Access token → token-info answer.
        var tokenInfo: [String: JSONObject] = [:]
        var authMethods: [String] = []
    }

    private let state = Mutex(State())

    public init(base: String = "https://idp.test", clientId: String = "web-client", clientSecret: String = "s3cret") {
        self.base = base
        self.clientId = clientId
        self.clientSecret = clientSecret
    }

    // MARK: Controls

    public func publish(rsa: [(String, RSAPrivateKey)], ec: [(String, P256PrivateKey)] = []) {
        state.withLock { $0.rsaKeys = rsa; $0.ecKeys = ec }
    }
    public func setReachable(_ reachable: Bool) { state.withLock { $0.reachable = reachable } }
    /// What discovery says about token-endpoint authentication (`[]`: not said, i.e. Basic).
    public func setTokenEndpointAuthMethods(_ methods: [String]) { state.withLock { $0.authMethods = methods } }
    public func issueCode(_ code: String, idToken: String, challenge: String, redirectUri: String) {
        state.withLock { $0.codes[code] = IssuedCode(idToken: idToken, challenge: challenge, redirectUri: redirectUri) }
    }
    public func grantAccessToken(_ token: String, userInfo: JSONObject, tokenInfo: JSONObject? = nil) {
        state.withLock { $0.userInfo[token] = userInfo; $0.tokenInfo[token] = tokenInfo }
    }
    public var requests: [OutboundRequest] { state.withLock { $0.requests } }
    public func requests(to path: String) -> [OutboundRequest] { requests.filter { $0.url.hasPrefix(base + path) } }

    // MARK: Tokens

    public func claims(sub: String = "user-1", aud: String? = nil, nonce rawNonce: String? = nil, now: Int64,
                       email: String? = nil, emailVerified: JSONValue = true) -> JSONObject {
        var claims: JSONObject = ["iss": .string(base), "aud": .string(aud ?? clientId), "sub": .string(sub),
                                  "iat": .int(now), "exp": .int(now + 3600)]
        if let rawNonce { claims["nonce"] = .string(SHA256.hexDigest(rawNonce)) }
        if let email {
            claims["email"] = .string(email)
            claims["email_verified"] = emailVerified
        }
        return claims
    }

    public static func sign(_ claims: JSONObject, key: RSAPrivateKey = primaryKey, kid: String = "k1") -> String {
        try! JWS.signRS256(payload: JSONSerializer.bytes(.object(claims)), key: key, kid: kid)
    }

    public static func signES256(_ claims: JSONObject, key: P256PrivateKey = ecKey, kid: String = "e1") -> String {
        try! JWS.signES256(payload: JSONSerializer.bytes(.object(claims)), key: key, kid: kid, typ: "JWT")
    }

    // MARK: HTTP

    public func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        let reachable = state.withLock { s in
            s.requests.append(request)
            return s.reachable
        }
        guard reachable else { throw OutboundError.connectionFailed("issuer is down") }
        guard request.url.hasPrefix(base) else { return OutboundResponse(status: 404) }
        let path = String(request.url.dropFirst(base.count).split(separator: "?", maxSplits: 1).first ?? "")
        switch path {
        case "/.well-known/openid-configuration": return json(discovery())
        case "/jwks": return json(jwks())
        case "/token": return token(request)
        case "/userinfo": return bearer(request).flatMap { token in state.withLock { $0.userInfo[token] } }.map(json)
            ?? OutboundResponse(status: 401, body: Array(#"{"error":"invalid_token"}"#.utf8))
        case "/tokeninfo":
            let token = form(request)["access_token"] ?? ""
            return state.withLock { $0.tokenInfo[token] }.map(json)
                ?? OutboundResponse(status: 400, body: Array(#"{"error":"invalid_token"}"#.utf8))
        default: return OutboundResponse(status: 404)
        }
    }

    private func discovery() -> JSONObject {
        var document: JSONObject = ["issuer": .string(base), "jwks_uri": .string(base + "/jwks"),
                                    "authorization_endpoint": .string(base + "/authorize"),
                                    "token_endpoint": .string(base + "/token"), "userinfo_endpoint": .string(base + "/userinfo")]
        let methods = state.withLock { $0.authMethods }
        if !methods.isEmpty { document["token_endpoint_auth_methods_supported"] = .array(methods.map(JSONValue.string)) }
        return document
    }

    private func jwks() -> JSONObject {
        let (rsa, ec) = state.withLock { ($0.rsaKeys, $0.ecKeys) }
        var keys: [JSONValue] = rsa.map { kid, key in
            let jwk = JWK(rsa: key.publicKey, kid: kid)
            return ["kty": "RSA", "kid": .string(kid), "use": "sig", "alg": "RS256", "n": .string(jwk.n!), "e": .string(jwk.e!)]
        }
        keys += ec.map { kid, key in
            let jwk = JWK(p256: key.publicKey, kid: kid)
            return ["kty": "EC", "crv": "P-256", "kid": .string(kid), "use": "sig", "alg": "ES256",
                    "x": .string(jwk.x!), "y": .string(jwk.y!)]
        }
        return ["keys": .array(keys)]
    }

    /// RFC 6749 §4.1.3 with RFC 7636: the client authenticates (Basic, or the secret in the body when discovery
    /// says so), the code is single-use, and the verifier must hash to the challenge the code was issued under.
    private func token(_ request: OutboundRequest) -> OutboundResponse {
        let fields = form(request)
        let basic = request.headers.first { $0.0.lowercased() == "authorization" }?.1
        let expectedBasic = "Basic " + Base64.encode(Array("\(clientId):\(clientSecret)".utf8))
        let authenticated = basic == expectedBasic || (fields["client_id"] == clientId && fields["client_secret"] == clientSecret)
        guard authenticated else { return error(401, "invalid_client") }
        guard fields["grant_type"] == "authorization_code", let code = fields["code"],
              let issued = state.withLock({ $0.codes.removeValue(forKey: code) }) else { return error(400, "invalid_grant") }
        guard fields["redirect_uri"] == issued.redirectUri,
              Base64URL.encode(SHA256.hash(fields["code_verifier"] ?? "")) == issued.challenge else {
            return error(400, "invalid_grant")
        }
        return json(["access_token": .string("at-" + code), "token_type": "Bearer", "expires_in": 3600,
                     "id_token": .string(issued.idToken)])
    }

    private func form(_ request: OutboundRequest) -> [String: String] {
        Dictionary(FormURLEncoding.decode(String(decoding: request.body, as: UTF8.self)), uniquingKeysWith: { $1 })
    }

    private func bearer(_ request: OutboundRequest) -> String? {
        guard let value = request.headers.first(where: { $0.0.lowercased() == "authorization" })?.1,
              value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst("Bearer ".count))
    }

    private func json(_ object: JSONObject) -> OutboundResponse {
        OutboundResponse(status: 200, headers: [("Content-Type", "application/json")], body: JSONSerializer.bytes(.object(object)))
    }

    private func error(_ status: Int, _ code: String) -> OutboundResponse {
        OutboundResponse(status: status, body: JSONSerializer.bytes(["error": .string(code)]))
    }
}
