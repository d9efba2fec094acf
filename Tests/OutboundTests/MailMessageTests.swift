import Foundation
import Testing
@testable import Outbound

@Suite("Mail messages and the SMTP client")
struct MailMessageTests {
    let message = MailMessage(fromAddress: "noreply@example.com", fromName: "Démo", to: "ada@example.com",
                              subject: "ورود به Demo", text: "سلام\nhttps://x.test/?a=1&b=2", html: "<p dir=\"rtl\">سلام</p>",
                              date: 1_800_000_000, messageId: "abc123@example.com")

    @Test("non-ASCII headers are encoded words and both parts are base64 UTF-8")
    func mime() throws {
        let text = String(decoding: try message.rendered(boundary: "B"), as: UTF8.self)
        #expect(text.contains("Subject: =?UTF-8?B?\(Data("ورود به Demo".utf8).base64EncodedString())?=\r\n"))
        #expect(text.contains("From: =?UTF-8?B?\(Data("Démo".utf8).base64EncodedString())?= <noreply@example.com>\r\n"))
        #expect(text.contains("Message-ID: <abc123@example.com>\r\n"))
        #expect(text.contains("Date: Fri, 15 Jan 2027 08:00:00 +0000\r\n"))
        #expect(text.contains("Content-Type: multipart/alternative; boundary=\"B\""))
        #expect(text.contains(Data("سلام\nhttps://x.test/?a=1&b=2".utf8).base64EncodedString()))
        #expect(text.hasSuffix("--B--\r\n"))
        #expect(!text.contains("\n\n"))
    }

    @Test("a line break in a header value is refused (header injection)")
    func injection() {
        var bad = message
        bad.to = "ada@example.com\r\nBcc: everyone@example.com"
        #expect(throws: SMTPError.self) { try bad.rendered(boundary: "B") }
    }

    @Test("an SMTP server that is not there is reported as unreachable")
    func unreachable() throws {
        let mailer = SMTPMailer(settings: SMTPSettings(url: "smtp://127.0.0.1:1", security: .none, timeoutSeconds: 5))
        #expect {
            try mailer.send(message)
        } throws: { error in
            if case SMTPError.unreachable = error { return true }
            return false
        }
    }
}
