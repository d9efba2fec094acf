import AuthCore
import Crypto
import ProviderEmail
import Storage
import Testing
@testable import Gateway
import WireFormats

@Suite("Password changes, recency and hash upgrades")
struct PasswordLifecycleTests {
    @Test("changing the password returns new tokens and revokes the old ones")
    func changePassword() async throws {
        let gw = try await TestGateway.withEmail()
        let created = await gw.signUp("ada@example.com", "secret1")
        let oldToken = created["idToken"]?.stringValue ?? ""
        gw.time.advance(seconds: 2)
        let changed = await gw.update(["idToken": .string(oldToken), "password": "secret2", "returnSecureToken": true])
        #expect(changed.status == 200)
        let newToken = changed["idToken"]?.stringValue ?? ""
        #expect(!newToken.isEmpty)
        #expect(await gw.lookup(oldToken).error == "TOKEN_EXPIRED")
        #expect(await gw.lookup(newToken).status == 200)
        #expect(await gw.signIn("ada@example.com", "secret1").error == "INVALID_PASSWORD")
        #expect(await gw.signIn("ada@example.com", "secret2").status == 200)
        #expect(await gw.update(["idToken": .string(newToken), "password": "123"]).error?.hasPrefix("WEAK_PASSWORD") == true)
    }

    @Test("changing the email lower-cases it, unverifies it and refuses a taken one")
    func changeEmail() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.signUp("bob@example.com", "secret1")
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        #expect(await gw.update(["idToken": .string(token), "email": "BOB@example.com"]).error == "EMAIL_EXISTS")
        #expect(await gw.update(["idToken": .string(token), "email": "nope"]).error == "INVALID_EMAIL")
        let changed = await gw.update(["idToken": .string(token), "email": "Ada2@Example.com"])
        #expect(changed["email"]?.stringValue == "ada2@example.com")
        #expect(changed["emailVerified"]?.boolValue == false)
        #expect(changed["idToken"] != nil)
        #expect(await gw.signIn("ada2@example.com", "secret1").status == 200)
    }

    @Test("email, password and delete need a recent sign-in; anonymous users are exempt")
    func recency() async throws {
        let gw = try await TestGateway.withEmail()
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        let anonymous = await gw.signUpAnonymously()["idToken"]?.stringValue ?? ""
        gw.time.advance(seconds: 301)
        #expect(await gw.update(["idToken": .string(token), "password": "secret2"]).error == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        #expect(await gw.update(["idToken": .string(token), "email": "x@example.com"]).error == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        #expect(await gw.post("\(TestGateway.v1)/accounts:delete", ["idToken": .string(token)]).error == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        #expect(await gw.update(["idToken": .string(token), "displayName": "Ada"]).status == 200)
        #expect(await gw.update(["idToken": .string(anonymous), "email": "anon@example.com", "password": "secret9"]).status == 200)
        let fresh = await gw.signIn("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        #expect(await gw.post("\(TestGateway.v1)/accounts:delete", ["idToken": .string(fresh)]).status == 200)
    }

    @Test("the recency window is configurable")
    func recencyWindow() async throws {
        let gw = try await TestGateway.withEmail { $0.setPluginValue("email.recentSignInSeconds", 10) }
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        gw.time.advance(seconds: 11)
        #expect(await gw.update(["idToken": .string(token), "password": "secret2"]).error == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    }

    @Test("a hash made with older parameters is replaced after a successful sign-in")
    func rehash() async throws {
        let hasher = CountingHasher(n: 32)
        let gw = try await TestGateway.withEmail(hasher: hasher)
        let old = try ScryptPasswordHasher(parameters: .init(n: 16, r: 1, p: 1)).hash("secret1")
        try await gw.store.write { tx in
            try tx.insertUser(UserRecord(localId: "old-user", email: "old@example.com", password: old,
                                         validSince: 0, createdAt: 0))
        }
        #expect(await gw.signIn("old@example.com", "secret1").status == 200)
        let stored = try await gw.store.read { tx in try tx.user(localId: "old-user") }
        #expect(stored?.password != old)
        #expect(stored?.password.map(hasher.needsRehash) == false)
        #expect(await gw.signIn("old@example.com", "secret1").status == 200)
    }

    @Test("an account imported with Firebase's scrypt signs in and is moved to the gateway's hash")
    func firebaseImport() async throws {
        let gw = try await TestGateway.withEmail()
        let parameters = FirebaseHashParameters(
            signerKey: Base64.decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")!,
            saltSeparator: Base64.decode("Bw==")!, rounds: 8, memoryCost: 14)
        let imported = PasswordCredential(
            algorithm: ScryptPasswordHasher.firebaseAlgorithm, parameters: parameters.text,
            hash: Base64.decode("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")!,
            salt: Base64.decode("42xEC+ixf3L2lw==")!)
        try await gw.store.write { tx in
            try tx.insertUser(UserRecord(localId: "fb-user", email: "user1@example.com", password: imported,
                                         validSince: 0, createdAt: 0))
        }
        #expect(await gw.signIn("user1@example.com", "wrong").error == "INVALID_PASSWORD")
        #expect(await gw.signIn("user1@example.com", "user1password").status == 200)
        let stored = try await gw.store.read { tx in try tx.user(localId: "fb-user") }
        #expect(stored?.password?.algorithm == ScryptPasswordHasher.algorithm)
    }

    @Test("createAuthUri lists sign-in methods, and says nothing with privacy on")
    func createAuthUri() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.signUp("ada@example.com", "secret1")
        let path = "\(TestGateway.v1)/accounts:createAuthUri"
        let known = await gw.post(path, ["identifier": "ADA@example.com", "continueUri": "http://localhost"])
        #expect(known["registered"]?.boolValue == true)
        #expect(known["signinMethods"] == ["password"])
        #expect(known["allProviders"] == ["password"])
        let unknown = await gw.post(path, ["identifier": "nobody@example.com", "continueUri": "http://localhost"])
        #expect(unknown["registered"]?.boolValue == false)
        #expect(await gw.post(path, ["continueUri": "http://localhost"]).error == "MISSING_IDENTIFIER")
        #expect(await gw.post(path, ["identifier": "x", "continueUri": "http://localhost"]).error == "INVALID_IDENTIFIER")

        let privateGw = try await TestGateway.withEmail { $0.setPluginValue("email.improvedEmailPrivacy", true) }
        _ = await privateGw.signUp("ada@example.com", "secret1")
        let hidden = await privateGw.post(path, ["identifier": "ada@example.com", "continueUri": "http://localhost"])
        #expect(hidden["registered"] == nil)
        #expect(hidden["signinMethods"] == nil)
        #expect(hidden["sessionId"] != nil)
    }

    @Test("legacy v3 names reach the email operations")
    func legacyNames() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.signUp("ada@example.com", "secret1")
        let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
        #expect(await gw.post("\(legacy)/verifyPassword", ["email": "ada@example.com", "password": "secret1"]).status == 200)
        #expect(await gw.post("\(legacy)/createAuthUri", ["identifier": "ada@example.com", "continueUri": "http://localhost"])["registered"]?.boolValue == true)
        #expect(await gw.post("\(legacy)/getOobConfirmationCode", ["requestType": "PASSWORD_RESET", "email": "ada@example.com"]).status == 200)
        #expect(await gw.post("\(legacy)/resetPassword", ["oobCode": "nope"]).error == "INVALID_OOB_CODE")
        #expect(await gw.post("\(legacy)/emailLinkSignin", ["email": "ada@example.com", "oobCode": "nope"]).error == "INVALID_OOB_CODE")
    }
}

@Suite("Email privacy setting")
struct EmailPrivacySettingTests {
    @Test("admins switch improved email privacy at run time through the project config")
    func projectConfig() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.signUp("ada@example.com", "secret1")
        #expect(await gw.signIn("nobody@example.com", "secret1").error == "EMAIL_NOT_FOUND")
        let path = "/identitytoolkit.googleapis.com/v2/projects/test-project/config"
        let patched = await gw.send("PATCH", path, body: #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#,
                                    headers: TestGateway.adminHeaders)
        #expect(patched["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"]?.boolValue == true)
        #expect(await gw.signIn("nobody@example.com", "secret1").error == "INVALID_LOGIN_CREDENTIALS")
        let bad = await gw.send("PATCH", path, body: #"{"emailPrivacyConfig":7}"#, headers: TestGateway.adminHeaders)
        #expect(bad.status == 400)
    }
}
