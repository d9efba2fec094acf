import AuthCore
import Foundation
import Testing
@testable import Gateway
import WireFormats

/// Sends are limited alike for known and unknown addresses, and the status page shows mail counters.
@Suite("Send limits and mail counters")
struct SendLimitPrivacyTests {
    @Test("with privacy on, a known and an unknown address get the same answers from the send limit",
          arguments: ["PASSWORD_RESET", "EMAIL_SIGNIN"])
    func sameAnswers(_ type: String) async throws {
        let gw = try await TestGateway.withEmail {
            $0.setPluginValue("email.improvedEmailPrivacy", true)
            $0.setPluginValue("email.limits.sendsPerEmailPerHour", 2)
        }
        _ = await gw.signUp("known@example.com", "secret1")
        func answers(_ address: String) async -> [String] {
            var out: [String] = []
            for _ in 0..<3 {
                let reply = await gw.sendOobCode(["requestType": .string(type), "email": .string(address)])
                out.append(reply.error ?? String(reply.status))
            }
            return out
        }
        let known = await answers("known@example.com")
        #expect(known == ["200", "200", "TOO_MANY_ATTEMPTS_TRY_LATER"])
        #expect(await answers("ghost@example.com") == known)
    }

    @Test("GET / reports mail sent, failed, abandoned and queued as numbers only")
    func statusCounters() async throws {
        let mailer = CapturingMailer()
        mailer.setFailing(true)
        let gw = try await TestGateway.withEmail(mailer: mailer)
        func mail() async -> JSONValue? { await gw.send("GET", "/")["mail"] }
        #expect(await mail() == ["sent": 0, "failedAttempts": 0, "abandoned": 0, "queued": 0])
        _ = await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "a@example.com"])
        _ = await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "b@example.com"])
        await gw.app.services.email.outbox.deliverDue()
        #expect(await mail() == ["sent": 0, "failedAttempts": 2, "abandoned": 0, "queued": 2])
        mailer.setFailing(false)
        gw.time.advance(seconds: 5)
        await gw.app.services.email.outbox.deliverDue(limit: 1)
        gw.time.advance(seconds: 7 * 3600)
        await gw.app.services.email.outbox.deliverDue()
        let status = await gw.send("GET", "/")
        #expect(status["mail"] == ["sent": 1, "failedAttempts": 2, "abandoned": 1, "queued": 0])
        #expect(!JSONSerializer.string(status.json).contains("@"))
    }
}

/// A reset code is void once the account it was sent for changed its password or address.
@Suite("Password-reset codes after later changes")
struct ResetCodeStalenessTests {
    let v1 = TestGateway.v1

    func resetCode(_ gw: TestGateway, _ email: String) async -> String {
        await gw.admin("sendOobCode", ["requestType": "PASSWORD_RESET", "email": .string(email),
                                       "returnOobLink": true])["oobCode"]?.stringValue ?? ""
    }

    func reset(_ gw: TestGateway, _ code: String, _ password: String) async -> TestGateway.Reply {
        await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(code), "newPassword": .string(password)])
    }

    @Test("a code issued before a password change is refused")
    func afterPasswordChange() async throws {
        let gw = try await TestGateway.withEmail()
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        let code = await resetCode(gw, "ada@example.com")
        gw.time.advance(seconds: 1)
        #expect(await gw.update(["idToken": .string(token), "password": "changed1"]).status == 200)
        #expect(await reset(gw, code, "attacker1").error == "INVALID_OOB_CODE")
        #expect(await gw.signIn("ada@example.com", "changed1").status == 200)
    }

    @Test("of two reset codes, the second is refused once the first was used")
    func afterAnotherReset() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.signUp("ada@example.com", "secret1")
        let first = await resetCode(gw, "ada@example.com")
        let second = await resetCode(gw, "ada@example.com")
        gw.time.advance(seconds: 1)
        #expect(await reset(gw, first, "reset-one").status == 200)
        #expect(await reset(gw, second, "reset-two").error == "INVALID_OOB_CODE")
        #expect(await gw.signIn("ada@example.com", "reset-one").status == 200)
    }

    @Test("a code issued before an email change is refused")
    func afterEmailChange() async throws {
        let gw = try await TestGateway.withEmail()
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        let code = await resetCode(gw, "ada@example.com")
        #expect(await gw.update(["idToken": .string(token), "email": "ada2@example.com"]).status == 200)
        #expect(await reset(gw, code, "attacker1").error == "INVALID_OOB_CODE")
        #expect(await gw.signIn("ada2@example.com", "secret1").status == 200)
    }
}
