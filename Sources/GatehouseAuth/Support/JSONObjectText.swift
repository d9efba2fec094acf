import Foundation

/// JSON object text inside a JSON string (the gateway's `rawUserInfo`), parsed.
enum JSONObjectText {
    static func parse(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}
