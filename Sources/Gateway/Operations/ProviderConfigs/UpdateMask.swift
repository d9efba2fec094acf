import Foundation
import WireFormats

/// Google's `updateMask` (a FieldMask): the comma-separated, dot-separated paths a PATCH changes. Each named
/// path takes the body's value there, and a path the body leaves out or sets to `null` is cleared (how
/// firebase-admin deletes a display name). Without a mask, every top-level field of the body is one path.
enum UpdateMask {
    static func paths(_ mask: String?, body: JSONObject) -> [[String]] {
        let named = (mask ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let paths = named.isEmpty ? body.keys : named
        return paths.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
    }

    /// `resource` with every path of `paths` set from `patch` (pure).
    static func apply(_ paths: [[String]], from patch: JSONObject, to resource: JSONObject) -> JSONObject {
        var result = resource
        for path in paths where !path.isEmpty && !path.contains(where: \.isEmpty) {
            result = set(path[...], to: value(at: path[...], in: patch), in: result)
        }
        return result
    }

    private static func value(at path: ArraySlice<String>, in object: JSONObject) -> JSONValue? {
        guard let first = path.first, let member = object[first], !member.isNull else { return nil }
        if path.count == 1 { return member }
        return member.objectValue.flatMap { value(at: path.dropFirst(), in: $0) }
    }

    private static func set(_ path: ArraySlice<String>, to value: JSONValue?, in object: JSONObject) -> JSONObject {
        guard let first = path.first else { return object }
        var result = object
        if path.count == 1 {
            result[first] = value
        } else {
            result[first] = .object(set(path.dropFirst(), to: value, in: object[first]?.objectValue ?? JSONObject()))
        }
        return result
    }
}
