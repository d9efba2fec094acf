import AuthCore
import Foundation
import ProviderFacebook
import ProviderKit
import Testing
import WireFormats

@Suite("The facebook config section: keys, the secret from env or file, and problems named by key")
struct ConfigurationTests {
    func settings(_ object: JSONObject, environment: [String: String] = [:]) throws -> FacebookConfiguration {
        try FacebookProviderFactory().settings(from: ConfigSection(object, path: "facebook"), environment: environment)
    }

    func problem(_ object: JSONObject, environment: [String: String] = ["GATEHOUSE_FACEBOOK_APP_SECRET": "s"]) -> String? {
        do {
            _ = try settings(object, environment: environment)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("an absent section is a disabled provider with Facebook's hosts and a pinned Graph version")
    func defaults() throws {
        let configuration = try settings([:])
        #expect(!configuration.enabled && configuration.graphVersion == "v25.0")
        #expect(configuration.graphBaseURL == "https://graph.facebook.com")
        #expect(configuration.limitedLoginBaseURL == "https://limited.facebook.com")
        #expect(configuration.requestTimeoutSeconds == 5 && !configuration.acceptsRawNonce)
    }

    @Test("the app secret comes from the environment or from appSecretFile")
    func secret() throws {
        let fromEnv = try settings(["enabled": true, "appId": "123"], environment: ["GATEHOUSE_FACEBOOK_APP_SECRET": "env-secret"])
        #expect(fromEnv.appSecret == "env-secret")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fb-secret-\(UUID().uuidString)")
        try "file-secret\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try settings(["enabled": true, "appId": "123", "appSecretFile": .string(file.path)])
        #expect(fromFile.appSecret == "file-secret")
    }

    @Test("problems name the key to fix")
    func problems() {
        #expect(problem(["enabled": true])?.contains("facebook.appId is not set") == true)
        #expect(problem(["enabled": true, "appId": "my-app"])?.contains("numeric App ID") == true)
        #expect(problem(["enabled": true, "appId": "123"], environment: [:])?.contains("GATEHOUSE_FACEBOOK_APP_SECRET") == true)
        #expect(problem(["enabled": true, "appId": "123", "graphVersion": "25"])?.contains("facebook.graphVersion") == true)
        #expect(problem(["enabled": true, "appId": "123", "graphBaseUrl": "ftp://x"])?.contains("facebook.graphBaseUrl") == true)
        #expect(problem(["enabled": true, "appId": "123", "requestTimeoutSeconds": 0])?.contains("requestTimeoutSeconds") == true)
        #expect(problem(["enabled": true, "appId": "123", "keyRefreshIntervalSeconds": 0])?.contains("at least 1") == true)
        #expect(problem(["enabled": true, "appId": "123", "callbackMaxAgeSeconds": 10])?.contains("callbackMaxAgeSeconds") == true)
        #expect(problem(["appSecret": "inline"])?.contains("unknown config key \"facebook.appSecret\"") == true)
        #expect(problem(["enabled": true, "appId": "123", "graphVersion": "v24.0", "acceptRawNonce": true]) == nil)
    }
}
