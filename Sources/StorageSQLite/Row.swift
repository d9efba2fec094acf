import Storage

/// The current row of a stepping `Statement`, read by column index. Getters for required values throw
/// `StoreError.corrupt` on NULL, so a damaged row never turns into a silently wrong record.
struct Row {
    fileprivate let statement: Statement

    init(_ statement: Statement) { self.statement = statement }

    func text(_ column: Int32) throws(StoreError) -> String {
        try require(column)
        return statement.text(column)
    }

    func optionalText(_ column: Int32) -> String? {
        statement.isNull(column) ? nil : statement.text(column)
    }

    func integer(_ column: Int32) throws(StoreError) -> Int64 {
        try require(column)
        return statement.integer(column)
    }

    func optionalInteger(_ column: Int32) -> Int64? {
        statement.isNull(column) ? nil : statement.integer(column)
    }

    func blob(_ column: Int32) throws(StoreError) -> [UInt8] {
        try require(column)
        return statement.blob(column)
    }

    func optionalBlob(_ column: Int32) -> [UInt8]? {
        statement.isNull(column) ? nil : statement.blob(column)
    }

    func bool(_ column: Int32) throws(StoreError) -> Bool {
        switch try integer(column) {
        case 0: return false
        case 1: return true
        case let other: throw .corrupt("column \(column) holds \(other), expected a 0/1 boolean")
        }
    }

    private func require(_ column: Int32) throws(StoreError) {
        if statement.isNull(column) { throw .corrupt("column \(column) is NULL where a value is required") }
    }
}
