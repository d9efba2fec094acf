import Foundation
import Testing
@testable import ProviderEmail

@Suite("Email templates")
struct TemplateTests {
    @Test("Persian is chosen for fa, fa-IR and fa_IR, English otherwise")
    func languageChoice() {
        #expect(EmailTemplates.language("fa") == "fa")
        #expect(EmailTemplates.language("fa-IR") == "fa")
        #expect(EmailTemplates.language("FA_ir") == "fa")
        #expect(EmailTemplates.language("en-US") == "en")
        #expect(EmailTemplates.language(nil) == "en")
    }

    @Test("the Persian HTML is right-to-left and both parts carry the link")
    func persian() {
        let mail = EmailTemplates(appName: "Demo", overrideDirectory: nil)
            .render(.passwordReset, locale: "fa", link: "https://x.test/a?b=1&c=2", email: "a@b.c")
        #expect(mail.subject == "بازنشانی گذرواژه برای Demo")
        #expect(mail.html.contains("dir=\"rtl\""))
        #expect(mail.html.contains("https://x.test/a?b=1&amp;c=2"))
        #expect(mail.text.contains("https://x.test/a?b=1&c=2"))
    }

    @Test("files in the override directory replace the built-in text, with escaped values in HTML")
    func overrides() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tpl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("en"), withIntermediateDirectories: true)
        try "Custom {{appName}}\n".write(to: dir.appendingPathComponent("en/verifyEmail.subject"), atomically: true, encoding: .utf8)
        try "<b>{{email}}</b>".write(to: dir.appendingPathComponent("en/verifyEmail.html"), atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: dir) }
        let mail = EmailTemplates(appName: "Demo", overrideDirectory: dir.path)
            .render(.verifyEmail, locale: "en", link: "L", email: "<x>@y.z")
        #expect(mail.subject == "Custom Demo")
        #expect(mail.html == "<b>&lt;x&gt;@y.z</b>")
        #expect(mail.text.contains("Follow this link to verify"))
    }
}
