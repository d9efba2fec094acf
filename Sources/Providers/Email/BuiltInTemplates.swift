import Foundation
import ProviderKit

/// The texts the gateway ships with, in English and Persian. Placeholders are filled by `EmailTemplates`.
enum BuiltInTemplates {
    struct Text {
        let subject: String
        let body: String
        let button: String
    }

    static func text(_ type: OobRequestType, lang: String) -> Text {
        lang == "fa" ? persian(type) : english(type)
    }

    static func english(_ type: OobRequestType) -> Text {
        switch type {
        case .verifyEmail:
            return Text(subject: "Verify your email for {{appName}}",
                        body: "Hello,\n\nFollow this link to verify your email address ({{email}}):\n\n{{link}}\n\nIf you didn't ask to verify this address, you can ignore this email.\n\nThanks,\nYour {{appName}} team\n",
                        button: "Verify email")
        case .passwordReset:
            return Text(subject: "Reset your password for {{appName}}",
                        body: "Hello,\n\nFollow this link to reset your {{appName}} password for your {{email}} account:\n\n{{link}}\n\nIf you didn't ask to reset your password, you can ignore this email.\n\nThanks,\nYour {{appName}} team\n",
                        button: "Reset password")
        case .emailSignIn:
            return Text(subject: "Sign in to {{appName}}",
                        body: "Hello,\n\nWe received a request to sign in to {{appName}} using this email address ({{email}}). To sign in, follow this link:\n\n{{link}}\n\nIf you did not request this link, you can safely ignore this email.\n\nThanks,\nYour {{appName}} team\n",
                        button: "Sign in")
        case .verifyAndChangeEmail:
            return Text(subject: "Verify your new email for {{appName}}",
                        body: "Hello,\n\nFollow this link to change the email of your {{appName}} account to {{newEmail}}:\n\n{{link}}\n\nIf you didn't ask for this change, you can ignore this email.\n\nThanks,\nYour {{appName}} team\n",
                        button: "Verify new email")
        case .recoverEmail:
            return Text(subject: "Your sign-in email for {{appName}} was changed",
                        body: "Hello,\n\nThe sign-in email for your {{appName}} account was changed to {{newEmail}}.\n\nIf you didn't ask for this change, follow this link to restore your sign-in email ({{email}}):\n\n{{link}}\n\nThen reset your password as well.\n\nThanks,\nYour {{appName}} team\n",
                        button: "Restore email")
        }
    }

    static func persian(_ type: OobRequestType) -> Text {
        switch type {
        case .verifyEmail:
            return Text(subject: "تأیید نشانی ایمیل برای {{appName}}",
                        body: "سلام،\n\nبرای تأیید نشانی ایمیل خود ({{email}}) این پیوند را باز کنید:\n\n{{link}}\n\nاگر شما این درخواست را نداده‌اید، این ایمیل را نادیده بگیرید.\n\nسپاس،\nگروه {{appName}}\n",
                        button: "تأیید ایمیل")
        case .passwordReset:
            return Text(subject: "بازنشانی گذرواژه برای {{appName}}",
                        body: "سلام،\n\nبرای بازنشانی گذرواژهٔ حساب {{email}} در {{appName}} این پیوند را باز کنید:\n\n{{link}}\n\nاگر شما این درخواست را نداده‌اید، این ایمیل را نادیده بگیرید.\n\nسپاس،\nگروه {{appName}}\n",
                        button: "بازنشانی گذرواژه")
        case .emailSignIn:
            return Text(subject: "ورود به {{appName}}",
                        body: "سلام،\n\nدرخواستی برای ورود به {{appName}} با این نشانی ایمیل ({{email}}) دریافت کردیم. برای ورود این پیوند را باز کنید:\n\n{{link}}\n\nاگر شما این درخواست را نداده‌اید، این ایمیل را نادیده بگیرید.\n\nسپاس،\nگروه {{appName}}\n",
                        button: "ورود")
        case .verifyAndChangeEmail:
            return Text(subject: "تأیید نشانی ایمیل تازه برای {{appName}}",
                        body: "سلام،\n\nبرای تغییر ایمیل حساب {{appName}} خود به {{newEmail}} این پیوند را باز کنید:\n\n{{link}}\n\nاگر شما این درخواست را نداده‌اید، این ایمیل را نادیده بگیرید.\n\nسپاس،\nگروه {{appName}}\n",
                        button: "تأیید ایمیل تازه")
        case .recoverEmail:
            return Text(subject: "ایمیل ورود شما به {{appName}} تغییر کرد",
                        body: "سلام،\n\nایمیل ورود حساب {{appName}} شما به {{newEmail}} تغییر کرد.\n\nاگر شما این تغییر را نخواسته‌اید، برای بازگرداندن ایمیل ورود خود ({{email}}) این پیوند را باز کنید:\n\n{{link}}\n\nسپس گذرواژهٔ خود را هم بازنشانی کنید.\n\nسپاس،\nگروه {{appName}}\n",
                        button: "بازگرداندن ایمیل")
        }
    }

    /// A plain, inline-styled HTML version (mail clients drop style sheets). Persian pages are `dir="rtl"`.
    static func html(_ text: Text, lang: String) -> String {
        let direction = lang == "fa" ? "rtl" : "ltr"
        let align = lang == "fa" ? "right" : "left"
        let paragraphs = text.body.components(separatedBy: "\n\n")
            .filter { !$0.isEmpty && $0 != "{{link}}" }
            .map { "<p>" + $0.replacingOccurrences(of: "\n", with: "<br>") + "</p>" }
            .joined(separator: "\n")
        return """
        <!DOCTYPE html>
        <html lang="\(lang)" dir="\(direction)">
        <head><meta charset="utf-8"><title>\(text.subject)</title></head>
        <body style="font-family: sans-serif; text-align: \(align);" dir="\(direction)">
        \(paragraphs)
        <p><a href="{{link}}" style="display: inline-block; padding: 10px 16px; background: #1a73e8; color: #ffffff; text-decoration: none; border-radius: 4px;">\(text.button)</a></p>
        <p style="font-size: 12px; color: #666666;" dir="ltr">{{link}}</p>
        </body>
        </html>

        """
    }
}
