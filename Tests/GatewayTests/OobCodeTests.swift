import AuthCore
import Outbound
import Testing
@testable import Gateway
import WireFormats

@Suite("Out-of-band codes")
struct OobCodeTests {
    let v1 = TestGateway.v1

    /// Sends one mail through the outbox and returns its code.
    func deliveredCode(_ gw: TestGateway, _ mailer: CapturingMailer) async -> String? {
        await gw.app.services.email.outbox.deliverDue()
        return mailer.sent.last.flatMap(TestGateway.oobCode(in:))
    }

    @Test("a password reset mail carries a link whose code resets the password once")
    func passwordReset() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer)
        let oldToken = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        let sent = await gw.sendOobCode(["requestType": "PASSWORD_RESET", "email": "ADA@example.com"])
        #expect(sent["kind"]?.stringValue == "identitytoolkit#GetOobConfirmationCodeResponse")
        #expect(sent["email"]?.stringValue == "ada@example.com")
        #expect(sent["oobCode"] == nil)
        let code = try #require(await deliveredCode(gw, mailer))
        #expect(mailer.sent.last?.to == "ada@example.com")
        #expect(mailer.sent.last?.text.contains("https://auth.example.com/__/auth/action?mode=resetPassword&oobCode=") == true)

        let peek = await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(code)])
        #expect(peek["requestType"]?.stringValue == "PASSWORD_RESET")
        #expect(peek["email"]?.stringValue == "ada@example.com")
        #expect(await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(code), "newPassword": "123"]).error?
            .hasPrefix("WEAK_PASSWORD") == true)
        gw.time.advance(seconds: 2)
        let reset = await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(code), "newPassword": "brand-new"])
        #expect(reset["requestType"]?.stringValue == "PASSWORD_RESET")
        #expect(await gw.signIn("ada@example.com", "brand-new").status == 200)
        #expect(await gw.lookup(oldToken).error == "TOKEN_EXPIRED")
        #expect(await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(code), "newPassword": "again-new"]).error
            == "INVALID_OOB_CODE")
        #expect(await gw.post("\(v1)/accounts:resetPassword", [:]).error == "MISSING_OOB_CODE")
    }

    @Test("codes expire after their documented lifetime")
    func expiry() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer)
        _ = await gw.signUp("ada@example.com", "secret1")
        _ = await gw.sendOobCode(["requestType": "PASSWORD_RESET", "email": "ada@example.com"])
        let code = try #require(await deliveredCode(gw, mailer))
        gw.time.advance(seconds: 3601)
        #expect(await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(code)]).error == "EXPIRED_OOB_CODE")
    }

    @Test("verify email by code, and verify-and-change sends to the new address and switches to it")
    func verifyAndChange() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer)
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        _ = await gw.sendOobCode(["requestType": "VERIFY_EMAIL", "idToken": .string(token)])
        let verify = try #require(await deliveredCode(gw, mailer))
        #expect(await gw.update(["oobCode": .string(verify)])["emailVerified"]?.boolValue == true)
        #expect(await gw.update(["oobCode": .string(verify)]).error == "INVALID_OOB_CODE")

        #expect(await gw.sendOobCode(["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": .string(token)]).error
            == "MISSING_NEW_EMAIL")
        _ = await gw.sendOobCode(["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": .string(token), "newEmail": "New@Example.com"])
        let change = try #require(await deliveredCode(gw, mailer))
        #expect(mailer.sent.last?.to == "new@example.com")
        let peek = await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(change)])
        #expect(peek["newEmail"]?.stringValue == "new@example.com")
        let applied = await gw.update(["oobCode": .string(change)])
        #expect(applied["email"]?.stringValue == "new@example.com")
        #expect(await gw.signIn("new@example.com", "secret1").status == 200)
    }

    @Test("email link sign-in creates the account, signs it in again, and checks the address")
    func emailLink() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer)
        let path = "\(v1)/accounts:signInWithEmailLink"
        _ = await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "eve@example.com",
                                  "continueUrl": "https://auth.example.com/done", "canHandleCodeInApp": true])
        let code = try #require(await deliveredCode(gw, mailer))
        #expect(mailer.sent.last?.text.contains("mode=signIn") == true)
        #expect(await gw.post(path, ["email": "other@example.com", "oobCode": .string(code)]).error
            == "INVALID_EMAIL : The email provided does not match the sign-in email address.")
        let created = await gw.post(path, ["email": "eve@example.com", "oobCode": .string(code)])
        #expect(created["kind"]?.stringValue == "identitytoolkit#EmailLinkSigninResponse")
        #expect(created["isNewUser"]?.boolValue == true)
        let user = await gw.lookup(created["idToken"]?.stringValue ?? "")["users"]?.arrayValue?.first
        #expect(user?["emailVerified"]?.boolValue == true)
        #expect(user?["emailLinkSignin"]?.boolValue == true)
        #expect(await gw.post(path, ["email": "eve@example.com", "oobCode": .string(code)]).error == "INVALID_OOB_CODE")

        _ = await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "eve@example.com"])
        let again = try #require(await deliveredCode(gw, mailer))
        let second = await gw.post(path, ["email": "eve@example.com", "oobCode": .string(again)])
        #expect(second["isNewUser"]?.boolValue == false)
        #expect(second["localId"] == created["localId"])
    }

    @Test("an email link links to the anonymous user of the ID token, keeping its localId")
    func emailLinkUpgrade() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer)
        let anonymous = await gw.signUpAnonymously()
        _ = await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "anon@example.com"])
        let code = try #require(await deliveredCode(gw, mailer))
        let linked = await gw.post("\(v1)/accounts:signInWithEmailLink",
                                   ["email": "anon@example.com", "oobCode": .string(code), "idToken": anonymous["idToken"] ?? .null])
        #expect(linked["localId"] == anonymous["localId"])
        #expect(linked["isNewUser"]?.boolValue == false)
    }

    @Test("an email link that changes the signed-in user's address needs a recent sign-in and ends older sessions")
    func emailLinkAddressChange() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer) { $0.setPluginValue("email.recentSignInSeconds", 60) }
        let victim = await gw.signUp("victim@example.com", "secret1")
        _ = await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "thief@example.com"])
        let code = try #require(await deliveredCode(gw, mailer))
        gw.time.advance(seconds: 120)
        let path = "\(v1)/accounts:signInWithEmailLink"
        let stale = await gw.post(path, ["email": "thief@example.com", "oobCode": .string(code), "idToken": victim["idToken"] ?? .null])
        #expect(stale.error == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", "a stolen old token cannot move the account")
        let fresh = await gw.signIn("victim@example.com", "secret1")
        let moved = await gw.post(path, ["email": "thief@example.com", "oobCode": .string(code), "idToken": fresh["idToken"] ?? .null])
        #expect(moved["localId"] == victim["localId"])
        #expect(await gw.refresh(victim["refreshToken"]?.stringValue ?? "").error == "TOKEN_EXPIRED", "older sessions end")
        #expect(await gw.refresh(moved["refreshToken"]?.stringValue ?? "").status == 200, "the caller's new session works")
    }

    @Test("admins get the link back instead of a mail; clients may not ask for it")
    func adminLink() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer)
        _ = await gw.signUp("ada@example.com", "secret1")
        let reply = await gw.admin("sendOobCode", ["requestType": "VERIFY_EMAIL", "email": "ada@example.com",
                                                   "returnOobLink": true, "continueUrl": "https://auth.example.com/x"])
        let link = try #require(reply["oobLink"]?.stringValue)
        let code = try #require(reply["oobCode"]?.stringValue)
        #expect(link.hasPrefix("https://auth.example.com/__/auth/action?mode=verifyEmail&oobCode=\(code)&apiKey="))
        #expect(link.contains("&continueUrl=https%3A%2F%2Fauth.example.com%2Fx&lang=en"))
        await gw.app.services.email.outbox.deliverDue()
        #expect(mailer.sent.isEmpty)
        #expect(await gw.sendOobCode(["requestType": "VERIFY_EMAIL", "email": "ada@example.com", "returnOobLink": true]).error
            == "INSUFFICIENT_PERMISSION")
    }

    @Test("continue URLs must be absolute and on an authorized domain")
    func continueUrls() async throws {
        let gw = try await TestGateway.withEmail { $0.authorizedDomains = ["app.example.org"] }
        let base: JSONObject = ["requestType": "EMAIL_SIGNIN", "email": "a@example.com"]
        var body = base
        body["continueUrl"] = "https://evil.example.net/"
        #expect(await gw.sendOobCode(body).error?.hasPrefix("UNAUTHORIZED_DOMAIN") == true)
        body["continueUrl"] = "not a url"
        #expect(await gw.sendOobCode(body).error == "INVALID_CONTINUE_URI")
        body["continueUrl"] = "https://app.example.org/welcome"
        #expect(await gw.sendOobCode(body).status == 200)
        body["continueUrl"] = "https://auth.example.com/welcome"
        #expect(await gw.sendOobCode(body).status == 200)
        #expect(await gw.sendOobCode(["email": "a@example.com"]).error == "MISSING_REQ_TYPE")
    }

    @Test("with privacy on, a reset for an unknown address answers like a known one and sends nothing")
    func privateReset() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer) { $0.setPluginValue("email.improvedEmailPrivacy", true) }
        let reply = await gw.sendOobCode(["requestType": "PASSWORD_RESET", "email": "ghost@example.com"])
        #expect(reply.status == 200)
        await gw.app.services.email.outbox.deliverDue()
        #expect(mailer.sent.isEmpty)
        let open = try await TestGateway.withEmail()
        #expect(await open.sendOobCode(["requestType": "PASSWORD_RESET", "email": "ghost@example.com"]).error == "EMAIL_NOT_FOUND")
    }

    @Test("sends to one address are limited")
    func sendLimit() async throws {
        let gw = try await TestGateway.withEmail { $0.setPluginValue("email.limits.sendsPerEmailPerHour", 2) }
        let body: JSONObject = ["requestType": "EMAIL_SIGNIN", "email": "a@example.com"]
        #expect(await gw.sendOobCode(body).status == 200)
        #expect(await gw.sendOobCode(body).status == 200)
        #expect(await gw.sendOobCode(body).error == "TOO_MANY_ATTEMPTS_TRY_LATER")
    }

    @Test("emulator mode lists issued codes")
    func emulatorList() async throws {
        let gw = try await TestGateway.make { $0.emulator = true }
        _ = await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "a@example.com"])
        let list = await gw.send("GET", "/emulator/v1/projects/test-project/oobCodes")
        let first = list["oobCodes"]?.arrayValue?.first
        #expect(first?["email"]?.stringValue == "a@example.com")
        #expect(first?["requestType"]?.stringValue == "EMAIL_SIGNIN")
        #expect(first?["oobLink"]?.stringValue?.contains(first?["oobCode"]?.stringValue ?? "-") == true)
    }
}
