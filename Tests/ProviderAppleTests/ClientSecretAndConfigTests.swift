import AppleTestSupport
import AuthCore
import Crypto
import ProviderApple
import Testing
import WireFormats
import ProviderKit

@Suite("Apple client secret, configuration checks and the token type parser")
struct ClientSecretAndConfigTests {
    @Test("the client secret is an ES256 JWT with Apple's claims, cached per client and renewed before expiry")
    func clientSecret() throws {
        let time = ManualTime(milliseconds: 1_800_000_000_000)
        let secrets = try AppleClientSecret(teamId: FakeApple.teamId, keyId: FakeApple.keyId,
                                            privateKeyPEM: try FakeApple.clientKey.pkcs8PEM(), time: time)
        let first = try secrets.secret(for: FakeApple.bundleId)
        let jws = try CompactJWS(parsing: first)
        #expect(jws.header.alg == "ES256" && jws.header.kid == FakeApple.keyId)
        #expect(jws.isSignatureValid(using: .es256(FakeApple.clientKey.publicKey)))
        let claims = try #require(try JSONParser.parse(jws.payloadBytes).objectValue)
        #expect(claims["iss"] == .string(FakeApple.teamId) && claims["sub"] == .string(FakeApple.bundleId))
        #expect(claims["aud"] == "https://appleid.apple.com")
        let lifetime = (claims["exp"]?.intValue ?? 0) - (claims["iat"]?.intValue ?? 0)
        #expect(lifetime > 0 && lifetime <= 15_777_000)
        #expect(try secrets.secret(for: FakeApple.bundleId) == first)
        #expect(try secrets.secret(for: FakeApple.servicesId) != first, "sub differs per client ID")
        time.advance(seconds: 82_800 - 1)
        #expect(try secrets.secret(for: FakeApple.bundleId) == first)
        time.advance(seconds: 2)
        #expect(try secrets.secret(for: FakeApple.bundleId) != first, "renewed an hour before expiry")
    }

    @Test("a key that is not a P-256 .p8 is refused at start")
    func badKey() {
        #expect(throws: (any Error).self) {
            try AppleProvider(configuration: AppleConfiguration(enabled: true, bundleIds: ["a"], teamId: FakeApple.teamId,
                                                               keyId: FakeApple.keyId, privateKeyPEM: "not a key"),
                              fetcher: FakeApple(), ledger: MemoryLedger(), time: SystemTime())
        }
    }

    @Test("configuration problems name the setting to fix")
    func problems() {
        #expect(AppleConfiguration(enabled: false).problem == nil)
        #expect(AppleConfiguration(enabled: true).problem?.contains("apple.bundleIds") == true)
        #expect(AppleConfiguration(enabled: true, servicesIds: ["web"]).problem == nil)
        #expect(AppleConfiguration(enabled: true, bundleIds: ["a b"]).problem?.contains("without spaces") == true)
        #expect(AppleConfiguration(enabled: true, bundleIds: ["a"], keyId: "KEY1234567").problem?
                .contains("missing: apple.teamId, apple.privateKeyFile") == true)
        #expect(AppleConfiguration(enabled: true, bundleIds: ["a"], teamId: "short", keyId: "KEY1234567", privateKeyPEM: "k")
                .problem?.contains("apple.teamId must be the 10-character") == true)
        #expect(AppleConfiguration(enabled: true, bundleIds: ["a"], baseURL: "ftp://x").problem?.contains("apple.baseUrl") == true)
        #expect(AppleConfiguration(enabled: true, bundleIds: ["a"], clockSkewSeconds: -1).problem?.contains("clockSkew") == true)
    }

    @Test("the unknown-kid refresh interval must be at least a second: 0 would switch the rate limit off",
          arguments: [Int64(0), -1])
    func refreshIntervalTooSmall(seconds: Int64) {
        let problem = AppleConfiguration(enabled: true, bundleIds: ["a"], keyRefreshIntervalSeconds: seconds).problem
        #expect(problem?.hasPrefix("apple.keyRefreshIntervalSeconds must be at least 1") == true)
        #expect(AppleConfiguration(enabled: true, bundleIds: ["a"], keyRefreshIntervalSeconds: 1).problem == nil)
    }

    @Test("tokenType is accepted by name or by ordinal")
    func tokenTypes() {
        #expect(ProviderTokenType(wireValue: "CODE") == .code && ProviderTokenType(wireValue: "3") == .code)
        #expect(ProviderTokenType(wireValue: "1") == .refreshToken && ProviderTokenType(wireValue: "ACCESS_TOKEN") == .accessToken)
        #expect(ProviderTokenType(wireValue: "0") == nil && ProviderTokenType(wireValue: "code") == nil)
    }
}
