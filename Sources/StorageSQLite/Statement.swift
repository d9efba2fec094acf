import CSQLite
import Storage

/// A prepared statement, owned by one `Connection` and cached there for the connection's lifetime.
/// Each use binds, steps and resets it; the handle never leaves this type.
final class Statement {
    private let handle: OpaquePointer
    private unowned let connection: Connection

    init(sql: String, connection: Connection, database: OpaquePointer) throws(StoreError) {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw connection.failure(code, context: "prepare")
        }
        self.handle = prepared
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to parameters 1...n.
    func bind(_ values: [SQLValue]) throws(StoreError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let number):
                code = sqlite3_bind_int64(handle, index, number)
            case .text(let text):
                // SQLite copies the bytes (transient), so the string's own storage is lent, not copied first.
                var text = text
                code = text.isEmpty
                    ? shim_bind_text_transient(handle, index, "", 0)
                    : text.withUTF8 { buffer in
                        buffer.withMemoryRebound(to: CChar.self) {
                            shim_bind_text_transient(handle, index, $0.baseAddress, Int32($0.count))
                        }
                    }
            case .blob(let bytes):
                code = bytes.isEmpty
                    ? sqlite3_bind_zeroblob(handle, index, 0)
                    : bytes.withUnsafeBytes { shim_bind_blob_transient(handle, index, $0.baseAddress, Int32($0.count)) }
            }
            guard code == SQLITE_OK else { throw connection.failure(code, context: "bind") }
        }
    }

    /// Advances to the next row; false when the statement is done.
    func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.failure(code, context: "step")
        }
    }

    /// Makes the statement ready for its next use and releases its read snapshot.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns of the current row

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func integer(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func text(_ column: Int32) -> String {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let start = sqlite3_column_text(handle, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let start = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }
}
