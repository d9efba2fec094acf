import Crypto
import Federation
import Testing
import WireFormats

/// OpenID discovery for generic OIDC providers configured by issuer.
@Suite("OpenID discovery: issuer → jwks_uri, cached and rate-limited like the keys")
struct DiscoveryTests {
    let issuer = FakeIssuer()
    let time = CountingTime()
    let log = RecordingLog()

    func discovered() -> (OpenIDDiscovery, DiscoveredKeys) {
        let discovery = OpenIDDiscovery(issuer: FakeIssuer.issuer, fetcher: issuer, time: time, refreshIntervalSeconds: 60, log: log)
        return (discovery, DiscoveredKeys(discovery: discovery, algorithms: [.rs256, .es256], fetcher: issuer, time: time,
                                          refreshIntervalSeconds: 60, log: log))
    }

    func found(_ keys: DiscoveredKeys, _ kid: String) async -> KeyLookupFailure? {
        do { _ = try await keys.key(id: kid); return nil } catch { return error }
    }

    @Test("the document names the JWKS; both are fetched once while fresh")
    func discoversKeys() async throws {
        let (discovery, keys) = discovered()
        #expect(discovery.url == "https://idp.test/.well-known/openid-configuration")
        #expect(await found(keys, "rsa-1") == nil)
        #expect(await found(keys, "ec-1") == nil)
        #expect(issuer.fetches(of: FakeIssuer.discoveryURL) == 1 && issuer.fetches(of: FakeIssuer.jwksURL) == 1)
        #expect(try await discovery.current() == DiscoveryDocument(issuer: FakeIssuer.issuer, jwksURI: FakeIssuer.jwksURL))
    }

    @Test("a trailing slash on the configured issuer does not double the slash in the URL")
    func trailingSlash() {
        let discovery = OpenIDDiscovery(issuer: "https://idp.test/", fetcher: issuer, time: time, refreshIntervalSeconds: 60)
        #expect(discovery.url == "https://idp.test/.well-known/openid-configuration")
    }

    @Test("a document for another issuer is refused and logged, and gives no keys")
    func issuerMismatch() async {
        issuer.setDiscovery(["issuer": "https://evil.test", "jwks_uri": .string(FakeIssuer.jwksURL)])
        let (_, keys) = discovered()
        #expect(await found(keys, "rsa-1") == .unavailable)
        #expect(issuer.fetches(of: FakeIssuer.jwksURL) == 0)
        #expect(log.lines.first?.message == "openid discovery failed")
        #expect(log.lines.first?.details["reason"] == .string("issuer in the document is not the configured issuer"))
    }

    @Test("a document without an http(s) jwks_uri is refused")
    func badJWKSURI() async {
        issuer.setDiscovery(["issuer": .string(FakeIssuer.issuer), "jwks_uri": "file:///etc/keys"])
        let (_, keys) = discovered()
        #expect(await found(keys, "rsa-1") == .unavailable)
        #expect(log.lines.first?.details["reason"] == .string("jwks_uri missing or not an http(s) URL"))
    }

    @Test("the document is re-fetched after its lifetime, at most once per interval, and the last good copy is kept")
    func refreshAndOutage() async {
        let (_, keys) = discovered()
        #expect(await found(keys, "rsa-1") == nil)
        issuer.setReachable(false)
        time.advance(seconds: 3600)
        #expect(await found(keys, "rsa-1") == nil, "cached document and key survive the outage")
        #expect(await found(keys, "rsa-1") == nil)
        #expect(issuer.fetches(of: FakeIssuer.discoveryURL) == 2, "one retry, then the interval")
        #expect(log.lines.first { $0.message == "openid discovery failed" }?.details["cached_document_used"] == .bool(true))
    }

    @Test("a moved jwks_uri is followed once the document is re-read")
    func movedKeys() async {
        let (_, keys) = discovered()
        #expect(await found(keys, "rsa-1") == nil)
        issuer.setDiscovery(["issuer": .string(FakeIssuer.issuer), "jwks_uri": .string(FakeIssuer.base + "/moved-jwks")])
        issuer.publish([.rsaRotated])
        time.advance(seconds: 3600)
        #expect(await found(keys, "rsa-2") == nil)
        #expect(issuer.fetches(of: FakeIssuer.base + "/moved-jwks") == 1)
    }

    @Test("the document's other endpoints are read; one that is not an http(s) URL counts as absent")
    func endpoints() async throws {
        issuer.setDiscovery(["issuer": .string(FakeIssuer.issuer), "jwks_uri": .string(FakeIssuer.jwksURL),
                             "authorization_endpoint": "https://idp.test/authorize", "token_endpoint": "https://idp.test/token",
                             "userinfo_endpoint": "javascript:alert(1)",
                             "token_endpoint_auth_methods_supported": ["client_secret_post", 7]])
        let (discovery, _) = discovered()
        let document = try await discovery.current()
        #expect(document.authorizationEndpoint == "https://idp.test/authorize" && document.tokenEndpoint == "https://idp.test/token")
        #expect(document.userInfoEndpoint == nil && document.tokenEndpointAuthMethods == ["client_secret_post"])
    }
}
