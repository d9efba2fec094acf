import Storage

/// One-off SQL on a connection of its own, for this package's tests and tooling (creating and dropping the
/// scratch schemas the conformance suite runs in). Not part of the store's API.
package enum PostgresAdministration {
    package static func execute(_ sql: String, url: String) throws {
        do {
            let options = PostgresOptions(url: url)
            let connection = try PGConnection(parameters: options.connectionParameters)
            defer { connection.close() }
            try connection.executeScript(options.sessionSetup)
            try connection.executeScript(sql)
        } catch {
            throw PostgresFailures.storeError(for: error)
        }
    }
}
