import CLibPQ
import Foundation
import Storage

/// One libpq connection with its prepared statements. Every libpq call of the package goes through here.
///
/// libpq connections are not for concurrent use; the pool lends each to one job at a time (a job runs on
/// one worker thread), which is why the type may be `Sendable`. Statements are sent in pipeline mode: a
/// transaction's BEGIN, a savepoint, the statement itself (prepared on first use in the same pipeline) and
/// the savepoint's release travel together and cost one round trip.
final class PGConnection: @unchecked Sendable {
    enum Step {
        /// SQL without parameters (BEGIN, SAVEPOINT, COMMIT).
        case command(String)
        /// One statement with parameters, prepared once per connection and reused.
        case statement(String, [PGValue])
    }

    enum Outcome {
        case done(PGResult)
        case failed(PostgresFailure)
        /// Not run: an earlier step of the same pipeline failed.
        case skipped
    }

    private var handle: OpaquePointer?
    private var statementNames: [String: String] = [:]
    private var nextStatementNumber = 0

    /// Connects with libpq keyword/value pairs; pairs later in the list override earlier ones (the
    /// connection URL is passed as `dbname` and expanded in place).
    init(parameters: [(String, String)]) throws(PostgresFailure) {
        let keywords = parameters.map { strdup($0.0) } + [nil]
        let values = parameters.map { strdup($0.1) } + [nil]
        defer { (keywords + values).forEach { free($0) } }
        let opened = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordBuffer in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valueBuffer in
                PQconnectdbParams(keywordBuffer.baseAddress, valueBuffer.baseAddress, 1)
            }
        }
        guard let opened else { throw .lost("libpq could not allocate a connection") }
        guard PQstatus(opened) == CONNECTION_OK else {
            let message = Self.trimmed(String(cString: PQerrorMessage(opened)))
            PQfinish(opened)
            throw .lost(message)
        }
        handle = opened
    }

    deinit { close() }

    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// Not closed and not known to be broken.
    var isOpen: Bool {
        handle.map { PQstatus($0) == CONNECTION_OK } ?? false
    }

    /// Open, idle and outside any transaction: fit to lend to the next job.
    var isReusable: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// Runs SQL text without parameters that may hold several statements (session settings, migrations).
    func executeScript(_ sql: String) throws(PostgresFailure) {
        guard let handle else { throw .lost("the connection is closed") }
        guard let result = PQexec(handle, sql) else { throw failure(nil) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result) }
    }

    /// Sends every step, then waits for all their results: one round trip. After the first failed step the
    /// server skips the rest (`.skipped`).
    func pipeline(_ steps: [Step]) -> [Outcome] {
        guard let handle, PQstatus(handle) == CONNECTION_OK, PQenterPipelineMode(handle) == 1 else {
            return abandon(steps.count, failure(nil))
        }
        var expected: [Expected] = []
        for (index, step) in steps.enumerated() {
            guard send(step, on: handle, expecting: &expected) else { return abandon(steps.count, failure(nil)) }
            expected.append(.step(index))
        }
        guard PQpipelineSync(handle) == 1 else { return abandon(steps.count, failure(nil)) }
        var outcomes = Array(repeating: Outcome.skipped, count: steps.count)
        var failedPrepare: PostgresFailure?
        for item in expected {
            guard let result = nextResult(handle) else { return abandon(steps.count, failure(nil)) }
            let status = PQresultStatus(result)
            switch item {
            case .prepare(let sql):
                if status != PGRES_COMMAND_OK {
                    statementNames[sql] = nil
                    if status != PGRES_PIPELINE_ABORTED { failedPrepare = failure(result) }
                }
                PQclear(result)
            case .step(let index):
                if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
                    outcomes[index] = .done(PGResult(result))  // the result now owns the handle
                    continue
                }
                if status == PGRES_PIPELINE_ABORTED {
                    outcomes[index] = failedPrepare.map { .failed($0) } ?? .skipped
                    failedPrepare = nil
                } else {
                    outcomes[index] = .failed(failure(result))
                }
                PQclear(result)
            }
        }
        guard let sync = PQgetResult(handle), PQresultStatus(sync) == PGRES_PIPELINE_SYNC else {
            return abandon(steps.count, failure(nil))
        }
        PQclear(sync)
        guard PQexitPipelineMode(handle) == 1 else { return abandon(steps.count, failure(nil)) }
        return outcomes
    }

    // MARK: Private

    private enum Expected {
        case prepare(String)
        case step(Int)
    }

    /// Queues one step (and its PREPARE on first use) in the pipeline; false when libpq refused to send.
    private func send(_ step: Step, on handle: OpaquePointer, expecting expected: inout [Expected]) -> Bool {
        switch step {
        case .command(let sql):
            return PQsendQueryParams(handle, sql, 0, nil, nil, nil, nil, 1) == 1
        case .statement(let sql, let values):
            let name: String
            if let known = statementNames[sql] {
                name = known
            } else {
                nextStatementNumber += 1
                name = "gh\(nextStatementNumber)"
                let types = values.map(\.typeOID)
                guard PQsendPrepare(handle, name, sql, Int32(values.count), types) == 1 else { return false }
                statementNames[sql] = name
                expected.append(.prepare(sql))
            }
            return Self.withParameters(values) { pointers, lengths, formats in
                PQsendQueryPrepared(handle, name, Int32(values.count), pointers, lengths, formats, 1) == 1
            }
        }
    }

    /// The one result of the next query in the pipeline, having drained the NULL that ends it.
    private func nextResult(_ handle: OpaquePointer) -> OpaquePointer? {
        guard let result = PQgetResult(handle) else { return nil }
        while let extra = PQgetResult(handle) { PQclear(extra) }
        return result
    }

    /// The connection cannot be trusted any more (a send failed or results went missing): every step
    /// reports `failure`, and the connection is closed so the pool replaces it.
    private func abandon(_ count: Int, _ failure: PostgresFailure) -> [Outcome] {
        close()
        var lost = failure
        lost.connectionLost = true
        return Array(repeating: .failed(lost), count: count)
    }

    private func failure(_ result: OpaquePointer?) -> PostgresFailure {
        let lost = handle.map { PQstatus($0) != CONNECTION_OK } ?? true
        guard let result else {
            let message = handle.map { Self.trimmed(String(cString: PQerrorMessage($0))) } ?? "the connection is closed"
            return PostgresFailure(sqlState: nil, message: message.isEmpty ? "libpq call failed" : message,
                                   connectionLost: lost)
        }
        func field(_ code: Int32) -> String? { PQresultErrorField(result, code).map { String(cString: $0) } }
        let message = field(shim_PG_DIAG_MESSAGE_PRIMARY()) ?? Self.trimmed(String(cString: PQresultErrorMessage(result)))
        return PostgresFailure(sqlState: field(shim_PG_DIAG_SQLSTATE()), message: message,
                               constraint: field(shim_PG_DIAG_CONSTRAINT_NAME()), connectionLost: lost)
    }

    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Lays out parameters as libpq wants them (pointers, lengths, all binary) for the duration of `body`.
    private static func withParameters<T>(
        _ values: [PGValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) -> T {
        let encoded = values.map(\.binary)
        let lengths = encoded.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: values.count)
        // One buffer holds every value back to back (plus one byte so it is never empty).
        let storage = encoded.reduce(into: [CChar]()) { all, value in
            all += (value ?? []).map { CChar(bitPattern: $0) }
        } + [0]
        return storage.withUnsafeBufferPointer { buffer in
            var offset = 0
            let pointers: [UnsafePointer<CChar>?] = encoded.map { value in
                guard let value else { return nil }
                defer { offset += value.count }
                return buffer.baseAddress! + offset
            }
            return pointers.withUnsafeBufferPointer { pointerBuffer in
                lengths.withUnsafeBufferPointer { lengthBuffer in
                    formats.withUnsafeBufferPointer { formatBuffer in
                        body(pointerBuffer.baseAddress, lengthBuffer.baseAddress, formatBuffer.baseAddress)
                    }
                }
            }
        }
    }
}
