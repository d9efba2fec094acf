import Foundation

/// A JSON object from the gateway, read leniently as Firebase clients do (numbers where strings are expected,
/// and the other way round).
///
/// `@unchecked Sendable`: the dictionary comes from `JSONSerialization` and is never mutated.
struct GatewayResponse: @unchecked Sendable {
    let object: [String: Any]

    init(_ object: [String: Any]) {
        self.object = object
    }

    init?(json data: Data) {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        self.object = object
    }

    func string(_ key: String) -> String? {
        switch object[key] {
        case let text as String: text.isEmpty ? nil : text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }

    func bool(_ key: String) -> Bool {
        switch object[key] {
        case let flag as Bool: flag
        case let text as String: text == "true"
        default: false
        }
    }

    func int64(_ key: String) -> Int64? {
        switch object[key] {
        case let number as NSNumber: number.int64Value
        case let text as String: Int64(text)
        default: nil
        }
    }

    func objects(_ key: String) -> [GatewayResponse] {
        (object[key] as? [Any] ?? []).compactMap { ($0 as? [String: Any]).map(GatewayResponse.init) }
    }
}
