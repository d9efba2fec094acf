import AppleTestSupport
import AuthCore
import Crypto
import Foundation
@testable import Gateway
import Storage
import StorageSQLite
import TestSupport
import Testing

@Suite("Sign in with Apple through signInWithIdp", .serialized)
struct AppleSignInTests {
    let apple = FakeApple()

    @Test("first sign-in creates the user, later ones sign the same user in with a trusted email")
    func signIn() async throws {
        let gw = try await TestGateway.withApple(apple)
        let first = await gw.signInWithApple(email: "Ada@Example.com")
        #expect(first.status == 200 && first["isNewUser"] == true && first["providerId"] == "apple.com")
        #expect(first["email"] == "ada@example.com" && first["emailVerified"] == true && first["photoUrl"] == nil)
        #expect(first["oauthIdToken"]?.stringValue?.isEmpty == false)
        let second = await gw.signInWithApple(email: "ada@example.com")
        #expect(second["localId"] == first["localId"] && second["isNewUser"] == nil)
        let claims = TestGateway.claims(try #require(second["idToken"]?.stringValue))
        #expect(claims["firebase"]?["sign_in_provider"] == "apple.com")
    }

    @Test("a replayed nonce fails with Firebase's duplicate-credential message")
    func replay() async throws {
        let gw = try await TestGateway.withApple(apple)
        let token = gw.appleToken(nonce: "nonce-replay-0123456789")
        #expect(await gw.signInWithApple(token: token, nonce: "nonce-replay-0123456789").status == 200)
        #expect(await gw.signInWithApple(token: token, nonce: "nonce-replay-0123456789").error
                == "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")
    }

    @Test("the nonce stays used across a restart and on a second instance sharing the database")
    func replayAcrossInstances() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("users.sqlite")
        let store = try SQLiteUserStore(path: path)
        let key = SymmetricKey.generate()
        let one = try await TestGateway.withApple(apple, store: store, masterKey: key)
        let token = one.appleToken(nonce: "nonce-instances-0123456789")
        #expect(await one.signInWithApple(token: token, nonce: "nonce-instances-0123456789").status == 200)
        let other = try await TestGateway.withApple(FakeApple(), store: try SQLiteUserStore(path: path), masterKey: key)
        #expect(await other.signInWithApple(token: token, nonce: "nonce-instances-0123456789").error?
                .hasPrefix("MISSING_OR_INVALID_NONCE : Duplicate credential") == true)
    }

    @Test("Apple switched off answers OPERATION_NOT_ALLOWED")
    func disabled() async throws {
        let gw = try await TestGateway.withApple(apple) { $0.setPluginValue("apple.enabled", false) }
        #expect(await gw.signInWithApple().error == "OPERATION_NOT_ALLOWED")
    }

    @Test("verification failures reach the client as INVALID_IDP_RESPONSE with the failed check")
    func failuresOnTheWire() async throws {
        let gw = try await TestGateway.withApple(apple)
        let token = FakeApple.sign(FakeApple.claims(nonce: "nonce-aud-0123456789abc", now: gw.time.nowSeconds, aud: "com.other"))
        #expect(await gw.signInWithApple(token: token, nonce: "nonce-aud-0123456789abc").error
                == "INVALID_IDP_RESPONSE : id_token audience is not a configured bundle ID or Services ID")
        #expect(await gw.signInWithApple(token: gw.appleToken(nonce: "nonce-missing-0123456789"), nonce: nil).error
                == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
    }

    @Test("the gateway refuses to start with Apple enabled and no bundle or Services ID, naming the setting")
    func notConfigured() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("apple-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(#"{"apple":{"enabled":true}}"#.utf8).write(to: URL(fileURLWithPath: file))
        #expect {
            try ConfigurationLoader.load(flags: ["config": file], environment: [:])
        } throws: { error in
            "\(error)".contains("apple.bundleIds") && "\(error)".contains("apple.servicesIds")
        }
        try Data(#"{"apple":{"enabled":true,"bundleIds":["com.x"],"teamId":"TEAM123456"}}"#.utf8).write(to: URL(fileURLWithPath: file))
        #expect { try ConfigurationLoader.load(flags: ["config": file], environment: [:]) } throws: { error in
            "\(error)".contains("apple.keyId")
        }
        try Data(#"{"apple":{"enabled":true,"bundleIds":["com.x"],"colour":1}}"#.utf8).write(to: URL(fileURLWithPath: file))
        #expect { try ConfigurationLoader.load(flags: ["config": file], environment: [:]) } throws: { error in
            "\(error)".contains("apple.colour")
        }
    }
}
