import AppleTestSupport
import AuthCore
import ProviderApple
import Testing

@Suite("Apple code exchange and revocation at the provider level")
struct CodeExchangeTests {
    @Test("a code sent with the token is exchanged for the audience's client ID; the refresh token becomes a secret")
    func exchange() async throws {
        let fx = try AppleFixture()
        fx.apple.acceptCode("code-a")
        let identity = try await fx.signIn(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(), now: fx.now)), code: "code-a")
        #expect(identity.secrets == ["refreshToken": "rt-code-a", "clientId": FakeApple.bundleId])
        let form = String(decoding: try #require(fx.apple.requests(to: "/auth/token").first).body, as: UTF8.self)
        #expect(form.contains("grant_type=authorization_code") && form.contains("client_id=com.example.app"))
        #expect(!form.contains("redirect_uri"), "native codes have no redirect URI")
    }

    @Test("a code whose token names another user is not kept")
    func foreignCode() async throws {
        let fx = try AppleFixture()
        fx.apple.acceptCode("code-b", idToken: FakeApple.sign(FakeApple.claims(sub: "someone-else", nonce: nil, now: fx.now)))
        let identity = try await fx.signIn(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(), now: fx.now)), code: "code-b")
        #expect(identity.secrets.isEmpty)
    }

    @Test("stored tokens are revoked; Apple down throws so the caller retries; no secrets is a no-op")
    func revokeStored() async throws {
        let fx = try AppleFixture()
        try await fx.provider.revokeStoredTokens([:])
        try await fx.provider.revokeStoredTokens(["refreshToken": "rt-1", "clientId": FakeApple.bundleId])
        #expect(fx.apple.revokedTokens == ["rt-1"])
        fx.apple.setReachable(false)
        await #expect(throws: (any Error).self) {
            try await fx.provider.revokeStoredTokens(["refreshToken": "rt-2", "clientId": FakeApple.bundleId])
        }
    }

    @Test("an unreachable token endpoint is a warning naming the endpoint; the sign-in still succeeds")
    func unreachableTokenEndpointWarns() async throws {
        let fx = try AppleFixture()
        let token = FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(), now: fx.now))
        #expect(await fx.failure(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(1), now: fx.now)),
                                 nonce: AppleFixture.nonce(1)) == nil)  // keys cached
        fx.apple.setReachable(false)
        let identity = try await fx.signIn(token, code: "code-c")
        #expect(identity.secrets.isEmpty)
        let warning = try #require(fx.log.warnings("apple token endpoint unreachable").first)
        #expect(warning.details["endpoint"] == .string("/auth/token"))
        #expect(fx.log.lines.count == 1, "one line per failure")
        #expect(!fx.log.lines.contains { line in line.details.values.contains { "\($0)".contains("code-c") } })
    }

    @Test("names from the user parameter: web form, iOS form, blanks ignored")
    func names() async throws {
        let fx = try AppleFixture()
        func name(_ user: String, _ seed: Int) async throws -> String? {
            try await fx.signIn(FakeApple.sign(FakeApple.claims(nonce: AppleFixture.nonce(seed), now: fx.now)),
                                nonce: AppleFixture.nonce(seed), user: user).displayName
        }
        #expect(try await name(#"{"name":{"firstName":"Ada","lastName":"Lovelace"}}"#, 1) == "Ada Lovelace")
        #expect(try await name(#"{"name":{"givenName":"Grace","middleName":"B","familyName":"Hopper"}}"#, 2) == "Grace B Hopper")
        #expect(try await name(#"{"name":{"firstName":"  ","lastName":""}}"#, 3) == nil)
        #expect(try await name("not json", 4) == nil)
    }
}
