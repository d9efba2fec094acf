/// A value bound to a statement parameter. Only the four types the schema uses, so the same values
/// map one-to-one onto PostgreSQL's BIGINT, TEXT and BYTEA (booleans are 0/1 integers here).
enum SQLValue {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])

    init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
    init(_ value: Int64?) { self = value.map(SQLValue.integer) ?? .null }
    init(_ value: [UInt8]?) { self = value.map(SQLValue.blob) ?? .null }
    init(_ value: Bool) { self = .integer(value ? 1 : 0) }
    init(_ value: Int) { self = .integer(Int64(value)) }
}
