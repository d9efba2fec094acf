import WireFormats
import HTTP
import ProviderKit

/// The action page's HTML: plain forms and links, no JavaScript, in English or Persian (right to left).
/// The page carries a live code in its URL, so it is never cached, framed, or sent as a referrer.
enum ActionPageHTML {
    struct Strings {
        let verified: String, emailChanged: String, resetTitle: String, newPassword: String, save: String
        let passwordChanged: String, invalidLink: String, continueLabel: String, signInTitle: String, signInBody: String
        let confirmTitle: String, confirm: String, recoverTitle: String, emailRestored: String
    }

    static func strings(_ lang: String) -> Strings {
        lang == "fa"
            ? Strings(verified: "نشانی ایمیل شما تأیید شد.", emailChanged: "نشانی ایمیل حساب شما تغییر کرد و تأیید شد.",
                      resetTitle: "بازنشانی گذرواژه", newPassword: "گذرواژهٔ تازه", save: "ذخیره",
                      passwordChanged: "گذرواژهٔ شما تغییر کرد. اکنون می‌توانید با گذرواژهٔ تازه وارد شوید.",
                      invalidLink: "این پیوند نامعتبر است، منقضی شده یا پیش‌تر استفاده شده است.",
                      continueLabel: "ادامه", signInTitle: "ورود",
                      signInBody: "این پیوند را در برنامه‌ای که از آن درخواست ورود داده‌اید باز کنید.",
                      confirmTitle: "تأیید نشانی ایمیل", confirm: "تأیید", recoverTitle: "بازگرداندن ایمیل ورود",
                      emailRestored: "ایمیل ورود شما بازگردانده شد. اگر کس دیگری آن را تغییر داده بود، گذرواژهٔ خود را هم بازنشانی کنید.")
            : Strings(verified: "Your email has been verified.", emailChanged: "Your sign-in email has been changed and verified.",
                      resetTitle: "Reset your password", newPassword: "New password", save: "Save",
                      passwordChanged: "Your password has been changed. You can now sign in with your new password.",
                      invalidLink: "This link is invalid, has expired, or has already been used.",
                      continueLabel: "Continue", signInTitle: "Sign in",
                      signInBody: "Open this link in the app where you asked to sign in.",
                      confirmTitle: "Confirm your email address", confirm: "Confirm", recoverTitle: "Restore your sign-in email",
                      emailRestored: "Your sign-in email has been restored. If someone else changed it, reset your password too.")
    }

    static func page(lang: String, title: String, body: String, status: Int = 200) -> HTTPResponse {
        let direction = lang == "fa" ? "rtl" : "ltr"
        let html = """
        <!DOCTYPE html>
        <html lang="\(lang)" dir="\(direction)">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLEscaping.escape(title))</title>
        <style>body{font-family:sans-serif;max-width:28em;margin:3em auto;padding:0 1em}input,button{font-size:1em;padding:.4em}</style>
        </head>
        <body>
        <h1>\(HTMLEscaping.escape(title))</h1>
        \(body)
        </body>
        </html>

        """
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        headers.add("Referrer-Policy", "no-referrer")
        headers.add("X-Frame-Options", "DENY")
        headers.add("X-Content-Type-Options", "nosniff")
        headers.add("Content-Security-Policy",
                    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
        return HTTPResponse(status: status, headers: headers, body: Array(html.utf8))
    }

    static func message(_ text: String, continueUrl: String?, lang: String) -> String {
        var out = "<p>\(HTMLEscaping.escape(text))</p>"
        if let continueUrl {
            out += "\n<p><a href=\"\(HTMLEscaping.escape(continueUrl))\">\(HTMLEscaping.escape(strings(lang).continueLabel))</a></p>"
        }
        return out
    }

    /// The verification page's button: opening a link only shows it (mail scanners fetch links), and only
    /// the `POST` it sends uses the code.
    static func confirmForm(mode: String, code: String, email: String, lang: String) -> String {
        let hidden = [("mode", mode), ("oobCode", code), ("lang", lang)]
            .map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(HTMLEscaping.escape($0.1))\">" }
            .joined(separator: "\n")
        return """
        <p dir="ltr">\(HTMLEscaping.escape(email))</p>
        <form method="post" action="\(ActionLinks.path)">
        \(hidden)
        <p><button type="submit">\(HTMLEscaping.escape(strings(lang).confirm))</button></p>
        </form>
        """
    }

    static func resetForm(code: String, email: String, continueUrl: String?, lang: String, error: String?) -> String {
        let s = strings(lang)
        var hidden = [("mode", "resetPassword"), ("oobCode", code), ("lang", lang)]
        if let continueUrl { hidden.append(("continueUrl", continueUrl)) }
        let fields = hidden.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(HTMLEscaping.escape($0.1))\">" }
            .joined(separator: "\n")
        let problem = error.map { "<p role=\"alert\">\(HTMLEscaping.escape($0))</p>\n" } ?? ""
        return """
        <p dir="ltr">\(HTMLEscaping.escape(email))</p>
        \(problem)<form method="post" action="\(ActionLinks.path)">
        \(fields)
        <p><label>\(HTMLEscaping.escape(s.newPassword))<br><input type="password" name="newPassword" autocomplete="new-password" required></label></p>
        <p><button type="submit">\(HTMLEscaping.escape(s.save))</button></p>
        </form>
        """
    }
}
