/// A statement parameter, sent in PostgreSQL's binary format with its type declared at prepare time.
///
/// Binary with explicit lengths, not text: a text parameter is a C string to libpq, so a value with a NUL
/// character would be cut short silently; with a length, PostgreSQL sees the whole value and refuses it.
enum PGValue {
    case null
    case integer(Int64)
    case text(String)
    case bytes([UInt8])
    case bool(Bool)

    init(_ value: String?) { self = value.map(PGValue.text) ?? .null }
    init(_ value: Int64?) { self = value.map(PGValue.integer) ?? .null }
    init(_ value: [UInt8]?) { self = value.map(PGValue.bytes) ?? .null }
    init(_ value: Bool) { self = .bool(value) }
    init(_ value: Int) { self = .integer(Int64(value)) }

    /// The type OID declared for the parameter (`pg_type.oid`); 0 lets the server infer it (NULL).
    var typeOID: UInt32 {
        switch self {
        case .null: return 0
        case .integer: return 20  // int8
        case .text: return 25  // text
        case .bytes: return 17  // bytea
        case .bool: return 16  // bool
        }
    }

    /// The binary wire form, or nil for SQL NULL.
    var binary: [UInt8]? {
        switch self {
        case .null: return nil
        case .integer(let number): return withUnsafeBytes(of: number.bigEndian) { Array($0) }
        case .text(let text): return Array(text.utf8)
        case .bytes(let bytes): return bytes
        case .bool(let flag): return [flag ? 1 : 0]
        }
    }
}
