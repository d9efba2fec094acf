import AuthCore

/// Upper bounds on profile fields. Without them one request could store a megabyte per account, and an ID
/// token carrying it would make every later request of that user exceed the header limit (431/413).
enum ProfileLimits {
    static let displayName = 1024
    static let photoUrl = 2048
    /// Firebase's uid limit (firebase-admin refuses longer ones too).
    static let localId = 128
    /// What an identity may be keyed by: provider ids and subjects (OpenID Connect allows 255 ASCII characters).
    static let federatedKey = 255

    /// A `localId` a caller chose: 1 to 128 characters.
    static func checkLocalId(_ value: String?) throws(WireError) -> String? {
        guard let value else { return nil }
        guard !value.isEmpty, value.count <= localId else {
            throw .invalidPayload("Invalid value at 'local_id': 1 to \(localId) characters", reason: "invalid")
        }
        return value
    }

    /// A value a client sent: too long is a 400 naming the field.
    static func check(_ value: String, field: String, limit: Int) throws(WireError) -> String {
        // Counting bytes first spares grapheme breaking for every value that is short anyway.
        guard value.utf8.count <= limit || value.count <= limit else {
            throw .invalidPayload("Invalid value at '\(RequestBody.snakeCase(field))': longer than \(limit) characters",
                                  reason: "invalid")
        }
        return value
    }

    /// A value an identity provider sent: kept, but cut to the limit and without NUL characters (which
    /// PostgreSQL cannot store).
    static func clip(_ value: String?, limit: Int) -> String? {
        value.map { $0.utf8.contains(0) ? String(decoding: $0.utf8.filter { $0 != 0 }, as: UTF8.self) : $0 }
            .map { $0.count <= limit ? $0 : String($0.prefix(limit)) }
    }
}
