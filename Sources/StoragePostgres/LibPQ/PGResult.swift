import CLibPQ
import Storage

/// The rows of one successful statement, in binary format, freed with the object. Only `PGRow` reads it.
final class PGResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }

    /// Rows changed by an INSERT, UPDATE or DELETE (0 for other statements).
    var changedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The command tag, e.g. `COMMIT` (or `ROLLBACK` when a COMMIT found the transaction aborted).
    var commandTag: String { String(cString: PQcmdStatus(handle)) }

    func rows<Record>(_ decode: (PGRow) throws(StoreError) -> Record) throws(StoreError) -> [Record] {
        var records: [Record] = []
        records.reserveCapacity(rowCount)
        for index in 0..<Int32(rowCount) { records.append(try decode(PGRow(result: self, index: index))) }
        return records
    }

    fileprivate func isNull(_ row: Int32, _ column: Int32) -> Bool {
        PQgetisnull(handle, row, column) != 0
    }

    fileprivate func bytes(_ row: Int32, _ column: Int32) -> [UInt8] {
        let count = Int(PQgetlength(handle, row, column))
        guard count > 0, let start = PQgetvalue(handle, row, column) else { return [] }
        return UnsafeRawBufferPointer(start: start, count: count).map { $0 }
    }
}

/// One row of a `PGResult`, read by column index in binary format. Getters for required values throw
/// `StoreError.corrupt` on NULL or a value of the wrong width, so a damaged row never turns into a silently
/// wrong record.
struct PGRow {
    fileprivate let result: PGResult
    fileprivate let index: Int32

    func text(_ column: Int32) throws(StoreError) -> String {
        try require(column)
        return String(decoding: result.bytes(index, column), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? {
        result.isNull(index, column) ? nil : String(decoding: result.bytes(index, column), as: UTF8.self)
    }

    /// A BIGINT (8 bytes, big-endian).
    func integer(_ column: Int32) throws(StoreError) -> Int64 {
        try require(column)
        return try Self.int64(result.bytes(index, column), column: column)
    }

    func optionalInteger(_ column: Int32) throws(StoreError) -> Int64? {
        result.isNull(index, column) ? nil : try Self.int64(result.bytes(index, column), column: column)
    }

    func bytes(_ column: Int32) throws(StoreError) -> [UInt8] {
        try require(column)
        return result.bytes(index, column)
    }

    func optionalBytes(_ column: Int32) -> [UInt8]? {
        result.isNull(index, column) ? nil : result.bytes(index, column)
    }

    func bool(_ column: Int32) throws(StoreError) -> Bool {
        try require(column)
        switch result.bytes(index, column) {
        case [0]: return false
        case [1]: return true
        case let other: throw .corrupt("column \(column) holds \(other.count) bytes, expected a boolean")
        }
    }

    private func require(_ column: Int32) throws(StoreError) {
        if result.isNull(index, column) { throw .corrupt("column \(column) is NULL where a value is required") }
    }

    private static func int64(_ bytes: [UInt8], column: Int32) throws(StoreError) -> Int64 {
        guard bytes.count == 8 else { throw .corrupt("column \(column) holds \(bytes.count) bytes, expected a BIGINT") }
        return bytes.reduce(0) { ($0 << 8) | Int64($1) }
    }
}
