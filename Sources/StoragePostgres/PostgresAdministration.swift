import Storage

/// One-off SQL on a connection of its own, for this package's tests and tooling (creating and dropping the
/// scratch schemas the conformance suite runs in). Not part of the store's API.
package enum PostgresAdministration {
    package static func execute(_ sql: String, url: String) throws {
        do {
            let connection = try PGConnection(parameters: PostgresOptions(url: url).connectionParameters)
            defer { connection.close() }
            try connection.executeScript(sql)
        } catch {
            throw PostgresFailures.storeError(for: error)
        }
    }
}
