import Foundation
/// Pure helpers for PostgreSQL connection URLs. The URL may carry a password, so anything that logs or
/// prints it goes through `redacted`.
public enum ConnectionURL {
    /// Whether `text` is a URL libpq reads as PostgreSQL (`postgres://` or `postgresql://`).
    public static func isPostgres(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// The URL with its password (in the user-info part or a `password=` parameter) replaced by `***`.
    public static func redacted(_ url: String) -> String {
        var text = url
        if let scheme = text.range(of: "://") {
            let authorityEnd = text[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
            let authority = text[scheme.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        guard let query = text.firstIndex(of: "?") else { return text }
        let parameters = text[text.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false)
        let cleaned = parameters.map { parameter -> String in
            let name = parameter.split(separator: "=", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            return name == "password" || name == "sslpassword" ? "\(name)=***" : String(parameter)
        }
        return String(text[...query]) + cleaned.joined(separator: "&")
    }
}
