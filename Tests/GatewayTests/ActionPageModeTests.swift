import AuthCore
import Testing
@testable import Gateway
import WireFormats

/// The action page only uses a code for the mode its link names, and a `GET` never uses a code up.
@Suite("Action page modes")
struct ActionPageModeTests {
    func code(_ gw: TestGateway, _ body: JSONObject) async -> String {
        var request = body
        request["returnOobLink"] = true
        return await gw.admin("sendOobCode", .object(request))["oobCode"]?.stringValue ?? ""
    }

    func verified(_ gw: TestGateway, _ token: String) async -> Bool? {
        await gw.lookup(token)["users"]?.arrayValue?.first?["emailVerified"]?.boolValue
    }

    func form(_ gw: TestGateway, _ body: String) async -> TestGateway.Reply {
        await gw.send("POST", "/__/auth/action", body: body, headers: [("Content-Type", "application/x-www-form-urlencoded")])
    }

    @Test("opening a verification link shows a button; only its POST verifies")
    func confirmButton() async throws {
        let gw = try await TestGateway.withEmail()
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        let verify = await code(gw, ["requestType": "VERIFY_EMAIL", "email": "ada@example.com"])
        for _ in 0..<2 {
            let page = await gw.send("GET", "/__/auth/action?mode=verifyEmail&oobCode=\(verify)&lang=en")
            #expect(page.status == 200)
        }
        #expect(await verified(gw, token) == false)
        #expect(await form(gw, "mode=verifyEmail&oobCode=\(verify)&lang=en").status == 200)
        #expect(await verified(gw, token) == true)
        #expect(await form(gw, "mode=verifyEmail&oobCode=\(verify)&lang=en").status == 400)
    }

    @Test("each mode refuses codes of another type, and the refusal does not spend them")
    func wrongType() async throws {
        let gw = try await TestGateway.withEmail()
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        let verify = await code(gw, ["requestType": "VERIFY_EMAIL", "email": "ada@example.com"])
        let reset = await code(gw, ["requestType": "PASSWORD_RESET", "email": "ada@example.com"])
        let signIn = await code(gw, ["requestType": "EMAIL_SIGNIN", "email": "ada@example.com",
                                     "continueUrl": "https://auth.example.com/finish"])
        let change = await code(gw, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": .string(token),
                                     "newEmail": "ada2@example.com"])
        for (mode, code) in [("resetPassword", verify), ("signIn", reset), ("verifyEmail", reset),
                             ("verifyAndChangeEmail", verify), ("verifyEmail", change), ("resetPassword", signIn)] {
            #expect(await gw.send("GET", "/__/auth/action?mode=\(mode)&oobCode=\(code)").status == 400, "\(mode)")
        }
        #expect(await form(gw, "mode=verifyEmail&oobCode=\(change)").status == 400)
        #expect(await form(gw, "mode=verifyAndChangeEmail&oobCode=\(verify)").status == 400)
        #expect(await form(gw, "mode=resetPassword&oobCode=\(verify)&newPassword=secret9").status == 400)
        #expect(await form(gw, "mode=signIn&oobCode=\(signIn)").status == 400)
        #expect(await verified(gw, token) == false)
        #expect(await form(gw, "mode=verifyEmail&oobCode=\(verify)").status == 200)
        #expect(await form(gw, "mode=verifyAndChangeEmail&oobCode=\(change)").status == 200)
        #expect(await gw.signIn("ada2@example.com", "secret1").status == 200)
    }
}
