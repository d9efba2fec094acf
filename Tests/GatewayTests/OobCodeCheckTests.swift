import AuthCore
import Testing
@testable import Gateway
import WireFormats

/// Each check on a code's use has a test that fails if the check is removed.
@Suite("Out-of-band code checks")
struct OobCodeCheckTests {
    let v1 = TestGateway.v1

    func link(_ gw: TestGateway, _ body: JSONObject) async -> String {
        var request = body
        request["returnOobLink"] = true
        return await gw.admin("sendOobCode", .object(request))["oobCode"]?.stringValue ?? ""
    }

    @Test("a code is only good for its own purpose, and a wrong use does not spend it")
    func typeChecks() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.signUp("ada@example.com", "secret1")
        let verify = await link(gw, ["requestType": "VERIFY_EMAIL", "email": "ada@example.com"])
        #expect(await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(verify), "newPassword": "other-pw"]).error
            == "INVALID_OOB_CODE")
        #expect(await gw.post("\(v1)/accounts:signInWithEmailLink", ["oobCode": .string(verify), "email": "ada@example.com"]).error
            == "INVALID_OOB_CODE")
        let signIn = await link(gw, ["requestType": "EMAIL_SIGNIN", "email": "ada@example.com"])
        #expect(await gw.update(["oobCode": .string(signIn)]).error == "INVALID_OOB_CODE")
        #expect(await gw.update(["oobCode": .string(verify)])["emailVerified"]?.boolValue == true)
        let peek = await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(signIn)])
        #expect(peek["requestType"]?.stringValue == "EMAIL_SIGNIN")
        #expect(peek["email"] == nil)
    }

    @Test("a verification link for an address the account no longer has verifies nothing")
    func staleVerification() async throws {
        let gw = try await TestGateway.withEmail()
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        let verify = await link(gw, ["requestType": "VERIFY_EMAIL", "email": "ada@example.com"])
        let fresh = await gw.update(["idToken": .string(token), "email": "ada2@example.com"])["idToken"]?.stringValue ?? ""
        #expect(await gw.update(["oobCode": .string(verify)]).error == "INVALID_OOB_CODE")
        #expect(await gw.lookup(fresh)["users"]?.arrayValue?.first?["emailVerified"]?.boolValue == false)
    }

    @Test("linking an email by link to a user fails when another account owns the address")
    func linkConflict() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.signUp("ada@example.com", "secret1")
        let anonymous = await gw.signUpAnonymously()
        let code = await link(gw, ["requestType": "EMAIL_SIGNIN", "email": "ada@example.com"])
        #expect(await gw.post("\(v1)/accounts:signInWithEmailLink",
                              ["email": "ada@example.com", "oobCode": .string(code), "idToken": anonymous["idToken"] ?? .null]).error
            == "EMAIL_EXISTS")
    }

    @Test("proving the mailbox by link removes a password nobody proved, and ends its sessions")
    func preHijacking() async throws {
        let gw = try await TestGateway.withEmail()
        let squatter = await gw.signUp("victim@example.com", "squatter1")["idToken"]?.stringValue ?? ""
        gw.time.advance(seconds: 2)
        let code = await link(gw, ["requestType": "EMAIL_SIGNIN", "email": "victim@example.com"])
        let owner = await gw.post("\(v1)/accounts:signInWithEmailLink", ["email": "victim@example.com", "oobCode": .string(code)])
        #expect(owner.status == 200)
        #expect(await gw.signIn("victim@example.com", "squatter1").error == "INVALID_PASSWORD")
        #expect(await gw.lookup(squatter).error == "TOKEN_EXPIRED")
    }

    @Test("disabled accounts cannot sign in with a password or a link")
    func disabled() async throws {
        let gw = try await TestGateway.withEmail()
        let localId = await gw.signUp("ada@example.com", "secret1")["localId"]?.stringValue ?? ""
        _ = await gw.admin("update", ["localId": .string(localId), "disableUser": true])
        #expect(await gw.signIn("ada@example.com", "secret1").error == "USER_DISABLED")
        let code = await link(gw, ["requestType": "EMAIL_SIGNIN", "email": "ada@example.com"])
        #expect(await gw.post("\(v1)/accounts:signInWithEmailLink", ["email": "ada@example.com", "oobCode": .string(code)]).error
            == "USER_DISABLED")
    }

    @Test("requests for unsupported or unknown types are refused")
    func requestTypes() async throws {
        let gw = try await TestGateway.withEmail()
        #expect(await gw.sendOobCode(["requestType": "RECOVER_EMAIL", "email": "a@b.co"]).error?.hasPrefix("OPERATION_NOT_ALLOWED") == true)
        #expect(await gw.sendOobCode(["requestType": "NONSENSE", "email": "a@b.co"]).status == 400)
        #expect(await gw.sendOobCode(["requestType": "VERIFY_EMAIL"]).error == "INVALID_ID_TOKEN")
        #expect(await gw.sendOobCode(["requestType": "VERIFY_AND_CHANGE_EMAIL", "newEmail": "a@b.co"]).error == "MISSING_ID_TOKEN")
        let off = try await TestGateway.withEmail { $0.setPluginValue("email.emailLinkEnabled", false) }
        #expect(await off.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "a@b.co"]).error == "OPERATION_NOT_ALLOWED")
    }

    @Test("a password reset keeps the account's linked identities")
    func resetKeepsIdentities() async throws {
        let gw = try await TestGateway.withEmail()
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        #expect(await gw.signInWithIdp(sub: "ada-idp", idToken: token).status == 200)
        let code = await link(gw, ["requestType": "PASSWORD_RESET", "email": "ada@example.com"])
        #expect(await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(code), "newPassword": "secret2"]).status == 200)
        let fresh = await gw.signIn("ada@example.com", "secret2")["idToken"]?.stringValue ?? ""
        let providers = await gw.lookup(fresh)["users"]?.arrayValue?.first?["providerUserInfo"]?.arrayValue?
            .compactMap { $0["providerId"]?.stringValue }
        #expect(providers?.sorted() == ["password", "test.example"])
    }
}
