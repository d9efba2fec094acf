import WireFormats
import ProviderKit
import Foundation

/// A message ready to be put into MIME: a subject, a plain-text part and an HTML part.
public struct RenderedEmail: Sendable, Equatable {
    public var subject: String
    public var text: String
    public var html: String

    public init(subject: String, text: String, html: String) {
        self.subject = subject
        self.text = text
        self.html = html
    }
}

/// Chooses and fills the templates for action emails. Built-in texts exist in English and Persian
/// (right-to-left HTML); an operator can replace any of them with files in
/// `<dataDir>/templates/<lang>/<mode>.subject|.txt|.html` (placeholders `{{link}}`, `{{email}}`,
/// `{{newEmail}}`, `{{appName}}`; values are HTML-escaped in `.html` files).
public struct EmailTemplates: Sendable {
    public let overrideDirectory: String?
    public let appName: String

    public init(appName: String, overrideDirectory: String?) {
        self.appName = appName
        self.overrideDirectory = overrideDirectory
    }

    /// The built-in language for a `lang` / `X-Firebase-Locale` value (`fa`, `fa-IR`, `fa_IR` → Persian;
    /// anything else → English).
    public static func language(_ locale: String?) -> String { BuiltInLanguage.of(locale) }

    public func render(_ type: OobRequestType, locale: String?, link: String, email: String,
                       newEmail: String? = nil) -> RenderedEmail {
        let lang = Self.language(locale)
        let values = ["link": link, "email": email, "newEmail": newEmail ?? email, "appName": appName]
        let builtIn = BuiltInTemplates.text(type, lang: lang)
        let subject = file(lang, type, "subject") ?? builtIn.subject
        let text = file(lang, type, "txt") ?? builtIn.body
        let html = file(lang, type, "html") ?? BuiltInTemplates.html(builtIn, lang: lang)
        return RenderedEmail(subject: Self.fill(subject, values, escape: false).trimmingCharacters(in: .whitespacesAndNewlines),
                             text: Self.fill(text, values, escape: false),
                             html: Self.fill(html, values, escape: true))
    }

    private func file(_ lang: String, _ type: OobRequestType, _ ext: String) -> String? {
        guard let overrideDirectory else { return nil }
        let path = "\(overrideDirectory)/\(lang)/\(type.mode).\(ext)"
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func fill(_ template: String, _ values: [String: String], escape: Bool) -> String {
        var out = template
        for (key, value) in values {
            out = out.replacingOccurrences(of: "{{\(key)}}", with: escape ? HTMLEscaping.escape(value) : value)
        }
        return out
    }
}
