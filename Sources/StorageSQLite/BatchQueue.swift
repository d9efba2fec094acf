/// A caller's transaction body waiting in a `BatchQueue`, for `GroupCommit` or `GroupRead`.
struct QueuedBody: Sendable {
    /// Runs the body inside the batch's open transaction and returns how to deliver its result, which the batch
    /// calls only once that result is final: after the COMMIT that holds a write, after the read transaction and
    /// its connection are given back for a read. Throws the body's error.
    let run: @Sendable (SQLiteTransaction) throws -> @Sendable () -> Void
    /// Delivers a failure: the body's own error, or a failure of the transaction it ran in.
    let fail: @Sendable (any Error) -> Void
}

/// The waiting line in front of `GroupCommit` and `GroupRead`: callers queue work, and a bounded number of drain
/// jobs take it in batches, oldest first.
///
/// A drain job is started only when fewer than `maximumDrainers` are running, and it ends when it finds the line
/// empty. Both happen under the owner's lock, so a queued item is never left without a drain job to take it.
struct BatchQueue<Item> {
    private var waiting: [Item] = []
    private var drainers = 0
    let maximumDrainers: Int

    init(maximumDrainers: Int) {
        self.maximumDrainers = max(1, maximumDrainers)
    }

    /// Items queued and not yet taken.
    var count: Int { waiting.count }

    /// Queues `item`; true when the caller must start a drain job for it.
    mutating func add(_ item: Item) -> Bool {
        waiting.append(item)
        guard drainers < maximumDrainers else { return false }
        drainers += 1
        return true
    }

    /// The oldest items, at most `limit`. Empty means the line is empty and the calling drain job has ended.
    mutating func takeBatch(upTo limit: Int) -> [Item] {
        guard !waiting.isEmpty else {
            drainers -= 1
            return []
        }
        let count = min(waiting.count, limit)
        let batch = Array(waiting.prefix(count))
        waiting.removeFirst(count)
        return batch
    }
}
