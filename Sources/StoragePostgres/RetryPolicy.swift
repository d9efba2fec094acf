/// When a transaction that failed for a retryable reason runs again: a pure function of the attempt
/// number and the time spent, so it is tested without clocks.
///
/// A lost connection (the server restarting) is retried with exponential backoff until the budget is
/// spent, which rides out a restart of a second or two without the client seeing an error. A deadlock or
/// serialization failure is retried a few times at once: the other transaction has usually finished.
struct RetryPolicy: Sendable, Equatable {
    var budgetMilliseconds: Int64
    var firstDelayMilliseconds: Int64 = 20
    var maxDelayMilliseconds: Int64 = 500
    var maxConflictAttempts = 5

    /// How long to wait before attempt `attempt + 1`, or nil to give up. `attempt` counts from 1.
    func delay(after failure: PostgresFailure, attempt: Int, elapsedMilliseconds: Int64) -> Int64? {
        guard PostgresFailures.isRetryable(failure) else { return nil }
        if !PostgresFailures.isConnectionFailure(failure) {
            return attempt < maxConflictAttempts ? Int64(attempt) * 5 : nil
        }
        let backoff = min(maxDelayMilliseconds, firstDelayMilliseconds << min(Int64(attempt - 1), 16))
        guard elapsedMilliseconds + backoff <= budgetMilliseconds else { return nil }
        return backoff
    }
}
