import AuthCore
import Crypto
import Outbound
import Synchronization
import WireFormats

/// A signing key a test issuer publishes under `kid`.
struct TestKey: @unchecked Sendable {
    enum Material {
        case rsa(RSAPrivateKey)
        case ec(P256PrivateKey)
    }

    let kid: String
    let material: Material

    /// Generated once per test process: RSA key generation is the slow part.
    static let rsa = TestKey(kid: "rsa-1", material: .rsa(try! RSAPrivateKey.generate()))
    static let rsaRotated = TestKey(kid: "rsa-2", material: .rsa(try! RSAPrivateKey.generate()))
    static let ec = TestKey(kid: "ec-1", material: .ec(try! P256PrivateKey.generate()))
    static let ecOther = TestKey(kid: "ec-2", material: .ec(try! P256PrivateKey.generate()))

    /// The same private key published under another id.
    func named(_ kid: String) -> TestKey { TestKey(kid: kid, material: material) }

    /// The public JWK as a provider publishes it.
    var jwk: JSONValue {
        switch material {
        case .rsa(let key):
            let jwk = JWK(rsa: key.publicKey, kid: kid)
            return ["kty": "RSA", "kid": .string(kid), "alg": "RS256", "use": "sig", "n": .string(jwk.n!), "e": .string(jwk.e!)]
        case .ec(let key):
            let jwk = JWK(p256: key.publicKey, kid: kid)
            return ["kty": "EC", "crv": "P-256", "kid": .string(kid), "alg": "ES256", "use": "sig",
                    "x": .string(jwk.x!), "y": .string(jwk.y!)]
        }
    }

    /// A compact JWS of `claims` signed with this key under `kid` (its own by default).
    func sign(_ claims: JSONObject, kid: String? = nil) -> String {
        let payload = JSONSerializer.bytes(.object(claims))
        switch material {
        case .rsa(let key): return try! JWS.signRS256(payload: payload, key: key, kid: kid ?? self.kid)
        case .ec(let key): return try! JWS.signES256(payload: payload, key: key, kid: kid ?? self.kid)
        }
    }
}

/// An in-memory identity provider: serves a JWKS and an OpenID discovery document, records every request, and
/// can go down or hold key fetches until released, so the toolkit is tested without a network or a clock.
final class FakeIssuer: HTTPFetching, Sendable {
    static let base = "https://idp.test"
    static let issuer = "https://idp.test"
    static let jwksURL = base + "/jwks"
    static let discoveryURL = base + "/.well-known/openid-configuration"

    private struct State {
        var keys: [JSONValue] = [TestKey.rsa.jwk, TestKey.ec.jwk]
        var cacheControl: String?
        var discovery: JSONObject = ["issuer": .string(FakeIssuer.issuer), "jwks_uri": .string(FakeIssuer.jwksURL)]
        var reachable = true
        var holding = false
        var held: [CheckedContinuation<Void, Never>] = []
        var requests: [String] = []
    }

    private let state = Mutex(State())

    func publish(_ keys: [TestKey]) { publishRaw(keys.map(\.jwk)) }
    func publishRaw(_ entries: [JSONValue]) { state.withLock { $0.keys = entries } }
    func setCacheControl(_ value: String?) { state.withLock { $0.cacheControl = value } }
    func setDiscovery(_ document: JSONObject) { state.withLock { $0.discovery = document } }
    func setReachable(_ reachable: Bool) { state.withLock { $0.reachable = reachable } }
    /// From now on, fetches wait until `release()`.
    func hold() { state.withLock { $0.holding = true } }
    func release() {
        let waiting = state.withLock { s in
            s.holding = false
            defer { s.held = [] }
            return s.held
        }
        waiting.forEach { $0.resume() }
    }

    /// Fetches waiting for `release()`.
    var heldFetches: Int { state.withLock { $0.held.count } }
    func fetches(of url: String) -> Int { state.withLock { $0.requests.filter { $0 == url }.count } }

    func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        state.withLock { $0.requests.append(request.url) }
        await withCheckedContinuation { continuation in
            let proceed = state.withLock { s in
                if s.holding { s.held.append(continuation) }
                return !s.holding
            }
            if proceed { continuation.resume() }
        }
        let (reachable, keys, cacheControl, discovery) = state.withLock { ($0.reachable, $0.keys, $0.cacheControl, $0.discovery) }
        guard reachable else { throw OutboundError.connectionFailed("issuer is down") }
        let headers = cacheControl.map { [("Cache-Control", $0)] } ?? []
        switch request.url {
        case Self.jwksURL, Self.base + "/moved-jwks":
            return OutboundResponse(status: 200, headers: headers, body: JSONSerializer.bytes(["keys": .array(keys)]))
        case Self.discoveryURL:
            return OutboundResponse(status: 200, headers: headers, body: JSONSerializer.bytes(.object(discovery)))
        default:
            return OutboundResponse(status: 404)
        }
    }
}
