import AuthCore
import Outbound
import Testing
@testable import Gateway

@Suite("Mail delivery and the action page")
struct MailDeliveryTests {
    @Test("a failing SMTP server does not fail the request; the mail is retried with backoff and delivered")
    func retries() async throws {
        let mailer = CapturingMailer()
        mailer.setFailing(true)
        let gw = try await TestGateway.withEmail(mailer: mailer)
        let outbox = gw.app.services.email.outbox
        #expect(await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "a@example.com"]).status == 200)
        #expect(await outbox.deliverDue() == 0)
        let pending = try await gw.store.read { tx in try tx.outboxItems(kind: MessageOutbox.kind) }
        #expect(pending.count == 1)
        #expect(pending.first?.attempts == 1)
        #expect(pending.first?.lastError?.contains("unreachable") == true)
        #expect(!(pending.first?.payload.contains("a@example.com") ?? true))
        mailer.setFailing(false)
        #expect(await outbox.deliverDue() == 0)
        gw.time.advance(seconds: 5)
        #expect(await outbox.deliverDue() == 1)
        #expect(mailer.sent.count == 1)
        #expect(try await gw.store.read { tx in try tx.outboxItems(kind: MessageOutbox.kind) }.isEmpty)
        #expect(outbox.failedAttempts.load(ordering: .relaxed) == 1)
        #expect(gw.logs.contents.contains { $0.contains("mail delivery failed; will retry") })
    }

    @Test("a mail whose link expired before delivery is abandoned loudly")
    func abandoned() async throws {
        let mailer = CapturingMailer()
        mailer.setFailing(true)
        let gw = try await TestGateway.withEmail(mailer: mailer)
        _ = await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "a@example.com"])
        await gw.app.services.email.outbox.deliverDue()
        gw.time.advance(seconds: 7 * 3600)
        await gw.app.services.email.outbox.deliverDue()
        #expect(gw.app.services.email.outbox.abandoned.load(ordering: .relaxed) == 1)
        #expect(gw.logs.contents.contains { $0.contains("mail abandoned: its link expired before it could be delivered") })
    }

    @Test("X-Firebase-Locale fa picks the Persian template and the link's lang")
    func persian() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer)
        _ = await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "a@example.com"], headers: [("X-Firebase-Locale", "fa")])
        await gw.app.services.email.outbox.deliverDue()
        let mail = try #require(mailer.sent.first)
        #expect(mail.subject == "ورود به test-project")
        #expect(mail.html.contains("dir=\"rtl\""))
        #expect(mail.text.contains("&lang=fa"))
    }

    @Test("the action page verifies an email, and resets a password through its form")
    func actionPage() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer)
        let token = await gw.signUp("ada@example.com", "secret1")["idToken"]?.stringValue ?? ""
        let link = await gw.admin("sendOobCode", ["requestType": "VERIFY_EMAIL", "email": "ada@example.com", "returnOobLink": true])
        let query = String(link["oobLink"]?.stringValue?.split(separator: "?").last ?? "")
        let page = await gw.send("GET", "/__/auth/action?" + query)
        #expect(page.status == 200)
        #expect(page.headers["referrer-policy"] == "no-referrer")
        let confirm = await gw.send("POST", "/__/auth/action", body: query, headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(confirm.status == 200)
        #expect(await gw.lookup(token)["users"]?.arrayValue?.first?["emailVerified"]?.boolValue == true)
        #expect(await gw.send("GET", "/__/auth/action?" + query).status == 400)

        let reset = await gw.admin("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "ada@example.com", "returnOobLink": true])
        let code = reset["oobCode"]?.stringValue ?? ""
        #expect(await gw.send("GET", "/__/auth/action?mode=resetPassword&oobCode=\(code)&lang=fa").status == 200)
        let form = "mode=resetPassword&oobCode=\(code)&lang=en&newPassword=from-the-form"
        let weak = await gw.send("POST", "/__/auth/action", body: "mode=resetPassword&oobCode=\(code)&newPassword=1",
                                 headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(weak.status == 400)
        let done = await gw.send("POST", "/__/auth/action", body: form, headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(done.status == 200)
        #expect(await gw.signIn("ada@example.com", "from-the-form").status == 200)
    }

    @Test("an email sign-in link is redirected to its continue URL with the link parameters")
    func signInRedirect() async throws {
        let gw = try await TestGateway.withEmail()
        let link = await gw.admin("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "a@example.com", "returnOobLink": true,
                                                  "continueUrl": "https://auth.example.com/finish?x=1"])
        let query = String(link["oobLink"]?.stringValue?.split(separator: "?").last ?? "")
        let page = await gw.send("GET", "/__/auth/action?" + query)
        #expect(page.status == 303)
        #expect(page.headers["location"]?.hasPrefix("https://auth.example.com/finish?x=1&mode=signIn&oobCode=") == true)
    }
}

@Suite("The background mail sender")
struct MailSenderTests {
    @Test("an enqueue wakes the sender at once, and between wake-ups it rests instead of spinning")
    func wakesAndRests() async throws {
        let mailer = CapturingMailer()
        let gw = try await TestGateway.withEmail(mailer: mailer) { $0.setPluginValue("email.smtp.pollSeconds", 3600) }
        let outbox = gw.app.services.email.outbox
        let sender = Task { await outbox.run() }
        while outbox.rounds.load(ordering: .relaxed) < 1 { await Task.yield() }
        #expect(await gw.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "a@example.com"]).status == 200)
        while mailer.sent.isEmpty { await Task.yield() }
        // One round at start, one for the wake-up, perhaps one more if the wake-up landed mid-round: with an
        // hour between polls, any more would mean the sender never rests.
        #expect(outbox.rounds.load(ordering: .relaxed) <= 3)
        sender.cancel()
        await sender.value
    }
}
