/// The languages the gateway's own texts come in (mail templates, the action page): Persian for `fa`, `fa-IR`
/// and `fa_IR`, English for anything else. One rule, so a link's `lang` and its mail always agree.
public enum BuiltInLanguage {
    public static func of(_ locale: String?) -> String {
        guard let locale else { return "en" }
        let primary = locale.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
        return primary == "fa" ? "fa" : "en"
    }
}
