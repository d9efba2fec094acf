import WireFormats

/// The CSV form of `firebase auth:export`: one user per row, no header, fixed columns. Providers sit at fixed
/// positions (rawId, email, displayName, photoUrl each). Rows are turned into the same `UserInfo` objects the JSON
/// form holds, so both go through one import path.
enum AuthExportCSV {
    /// Where each provider's four columns start.
    static let providerColumns: [(String, Int)] = [
        ("google.com", 7), ("facebook.com", 11), ("twitter.com", 15), ("github.com", 19), ("apple.com", 28),
        ("microsoft.com", 32), ("gc.apple.com", 36), ("playgames.google.com", 40), ("linkedin.com", 44), ("yahoo.com", 48),
    ]

    /// The `UserInfo` object of one row.
    static func user(_ row: [String]) -> JSONObject {
        func column(_ index: Int) -> String? { index < row.count && !row[index].isEmpty ? row[index] : nil }
        var user = JSONObject()
        let text: [(String, Int)] = [("localId", 0), ("email", 1), ("passwordHash", 3), ("salt", 4), ("displayName", 5),
                                     ("photoUrl", 6), ("createdAt", 23), ("lastSignedInAt", 24), ("phoneNumber", 25),
                                     ("customAttributes", 27)]
        for (key, index) in text { user.set(key, column(index)) }
        user.set("emailVerified", column(2).map { $0 == "true" })
        user.set("disabled", column(26).map { $0 == "true" })
        var providers: [JSONValue] = []
        for (providerId, start) in providerColumns {
            guard let rawId = column(start) else { continue }
            var entry: JSONObject = ["providerId": .string(providerId), "rawId": .string(rawId)]
            entry.set("email", column(start + 1))
            entry.set("displayName", column(start + 2))
            entry.set("photoUrl", column(start + 3))
            providers.append(.object(entry))
        }
        if !providers.isEmpty { user["providerUserInfo"] = .array(providers) }
        return user
    }

    /// Splits CSV text (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks) into rows,
    /// one at a time from `position`.
    struct Rows {
        private let bytes: [UInt8]
        private(set) var position = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func next() -> [String]? {
            // Blank lines between rows are skipped.
            while position < bytes.count, bytes[position] == 0x0A || bytes[position] == 0x0D { position += 1 }
            guard position < bytes.count else { return nil }
            var fields: [String] = []
            var field: [UInt8] = []
            var quoted = false
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if quoted {
                    if byte == UInt8(ascii: "\"") {
                        if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
                            field.append(byte)
                            position += 1
                        } else {
                            quoted = false
                        }
                    } else {
                        field.append(byte)
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\"") where field.isEmpty:
                    quoted = true
                case UInt8(ascii: ","):
                    fields.append(String(decoding: field, as: UTF8.self))
                    field = []
                case 0x0A, 0x0D:
                    fields.append(String(decoding: field, as: UTF8.self))
                    return fields
                default:
                    field.append(byte)
                }
            }
            fields.append(String(decoding: field, as: UTF8.self))
            return fields
        }
    }
}
