import AuthCore
import Crypto
import Outbound
import ProviderFacebook
import Synchronization
import WireFormats

/// An in-memory stand-in for Facebook's endpoints: Graph's `debug_token`, `/me` (which refuses a missing or
/// wrong `appsecret_proof`, as with "Require App Secret" on), `oauth/access_token`, and Limited Login's JWKS.
/// Every request is recorded so tests can check what the provider sent.
final class FakeFacebook: HTTPFetching, Sendable {
    static let graph = "https://graph.test"
    static let dialog = "https://www.facebook.test"
    static let limited = "https://limited.facebook.test"
    static let appId = "1234567890"
    static let appSecret = "app-secret-not-real"
    static let key = try! RSAPrivateKey.generate()

    /// What `debug_token` says about one user access token.
    struct Token: Sendable {
        var appId = FakeFacebook.appId
        var type = "USER"
        var userId = "10001"
        var isValid = true
        var expiresAt: Int64 = 0
        var errorSubcode: Int64?
        var scopes = ["public_profile", "email"]
        /// Revoked between the two calls: `debug_token` still vouches for it, `/me` answers Graph error 190.
        var revokedBeforeProfile = false
    }

    /// How the stand-in answers when it is not answering normally.
    enum Mode: Sendable {
        case normal
        case unreachable(OutboundError)
        case status(Int, graphCode: Int64?)
    }

    private struct State {
        var tokens: [String: Token] = [:]
        var profiles: [String: JSONObject] = [:]
        var codes: [String: (token: String, verifier: String)] = [:]
        var mode = Mode.normal
        var requests: [OutboundRequest] = []
    }

    private let state = Mutex(State())

    func issue(_ accessToken: String, _ token: Token = Token(), profile: JSONObject? = nil) {
        state.withLock { s in
            s.tokens[accessToken] = token
            s.profiles[token.userId] = profile ?? Self.profile(id: token.userId)
        }
    }

    func setProfile(_ userId: String, _ profile: JSONObject) { state.withLock { $0.profiles[userId] = profile } }
    func acceptCode(_ code: String, for accessToken: String, verifier: String) {
        state.withLock { $0.codes[code] = (accessToken, verifier) }
    }
    func setMode(_ mode: Mode) { state.withLock { $0.mode = mode } }
    var requests: [OutboundRequest] { state.withLock { $0.requests } }

    func query(of path: String) -> [String: String]? {
        guard let request = requests.last(where: { $0.url.hasPrefix(Self.graph + "/v25.0" + path + "?") }) else { return nil }
        var fields: [String: String] = [:]
        for (k, v) in FormURLEncoding.decode(String(request.url.split(separator: "?", maxSplits: 1)[1])) { fields[k] = v }
        return fields
    }

    static func profile(id: String, email: String? = "ada@example.com") -> JSONObject {
        var profile: JSONObject = ["id": .string(id), "name": "Ada Lovelace", "first_name": "Ada", "last_name": "Lovelace",
                                   "picture": ["data": ["url": "https://cdn.example/ada.jpg", "is_silhouette": false,
                                                        "width": 200, "height": 200]]]
        profile.set("email", email)
        return profile
    }

    // MARK: Limited Login tokens

    static func claims(sub: String = "10001", nonce: String?, now: Int64, aud: String = appId,
                       iss: String = "https://www.facebook.com") -> JSONObject {
        var claims: JSONObject = ["iss": .string(iss), "aud": .string(aud), "sub": .string(sub), "iat": .int(now),
                                  "exp": .int(now + 3600), "jti": "jti-1", "name": "Ada Lovelace", "given_name": "Ada",
                                  "family_name": "Lovelace", "email": "ada@example.com",
                                  "picture": "https://cdn.example/ll.jpg"]
        claims.set("nonce", nonce)
        return claims
    }

    static func sign(_ claims: JSONObject, key: RSAPrivateKey = key, kid: String = "ll-1") -> String {
        try! JWS.signRS256(payload: JSONSerializer.bytes(.object(claims)), key: key, kid: kid)
    }

    // MARK: HTTPFetching

    func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        let mode = state.withLock { s in
            s.requests.append(request)
            return s.mode
        }
        switch mode {
        case .unreachable(let error): throw error
        case .status(let status, let code):
            var body: JSONObject = [:]
            if let code { body["error"] = ["message": "stand-in failure", "type": "OAuthException", "code": .int(code)] }
            return OutboundResponse(status: status, body: JSONSerializer.bytes(.object(body)))
        case .normal: break
        }
        let parts = request.url.split(separator: "?", maxSplits: 1).map(String.init)
        var query: [String: String] = [:]
        for (k, v) in FormURLEncoding.decode(parts.count > 1 ? parts[1] : "") { query[k] = v }
        switch parts[0] {
        case Self.limited + "/.well-known/oauth/openid/jwks/": return keys()
        case Self.graph + "/v25.0/debug_token": return debugToken(query)
        case Self.graph + "/v25.0/me": return me(query)
        case Self.graph + "/v25.0/oauth/access_token": return exchange(query)
        default: return OutboundResponse(status: 404)
        }
    }

    private func keys() -> OutboundResponse {
        let jwk = JWK(rsa: Self.key.publicKey, kid: "ll-1")
        let entry: JSONValue = ["kty": "RSA", "kid": "ll-1", "alg": "RS256", "use": "sig", "n": .string(jwk.n!),
                                "e": .string(jwk.e!)]
        return Self.json(["keys": [entry]])
    }

    private func debugToken(_ query: [String: String]) -> OutboundResponse {
        guard query["access_token"] == "\(Self.appId)|\(Self.appSecret)" else {
            return Self.graphError(400, code: 190, "Invalid OAuth access token signature.")
        }
        guard let input = query["input_token"], let token = state.withLock({ $0.tokens[input] }) else {
            return Self.json(["data": ["is_valid": false, "error": ["code": 190, "message": "Invalid OAuth access token."]]])
        }
        var data: JSONObject = ["app_id": .string(token.appId), "type": .string(token.type), "application": "Test",
                                "is_valid": .bool(token.isValid), "expires_at": .int(token.expiresAt),
                                "scopes": .array(token.scopes.map(JSONValue.string)), "user_id": .string(token.userId)]
        if let subcode = token.errorSubcode { data["error"] = ["code": 190, "subcode": .int(subcode)] }
        return Self.json(["data": .object(data)])
    }

    private func me(_ query: [String: String]) -> OutboundResponse {
        guard let accessToken = query["access_token"], let token = state.withLock({ $0.tokens[accessToken] }), token.isValid,
              !token.revokedBeforeProfile else {
            return Self.graphError(400, code: 190, "Invalid OAuth access token.")
        }
        let proof = AppSecretProof.proof(accessToken: accessToken, appSecret: Self.appSecret)
        guard query["appsecret_proof"] == proof else { return Self.graphError(400, code: 100, "Invalid appsecret_proof") }
        guard let profile = state.withLock({ $0.profiles[token.userId] }) else { return Self.graphError(400, code: 100, "no profile") }
        return Self.json(profile)
    }

    private func exchange(_ query: [String: String]) -> OutboundResponse {
        guard query["client_id"] == Self.appId, query["client_secret"] == Self.appSecret, let code = query["code"],
              let grant = state.withLock({ $0.codes.removeValue(forKey: code) }),
              query["code_verifier"] == grant.verifier else {
            return Self.graphError(400, code: 100, "Invalid verification code format.")
        }
        return Self.json(["access_token": .string(grant.token), "token_type": "bearer", "expires_in": 5_183_944])
    }

    static func json(_ object: JSONObject) -> OutboundResponse {
        OutboundResponse(status: 200, headers: [("Content-Type", "application/json")], body: JSONSerializer.bytes(.object(object)))
    }

    static func graphError(_ status: Int, code: Int64, _ message: String) -> OutboundResponse {
        OutboundResponse(status: status, body: JSONSerializer.bytes(["error": ["message": .string(message),
                                                                               "type": "OAuthException", "code": .int(code)]]))
    }
}
