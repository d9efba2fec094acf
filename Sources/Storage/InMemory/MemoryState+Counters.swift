extension MemoryState {
    struct Counter: Sendable, Equatable {
        var windowEndsAt: Int64
        var count: Int
    }

    // MARK: Counters

    mutating func addToCounter(_ key: String, windowEndsAt: Int64, delta: Int, limit: Int) -> Int? {
        var entry = counters[key] ?? Counter(windowEndsAt: windowEndsAt, count: 0)
        if windowEndsAt > entry.windowEndsAt { entry = Counter(windowEndsAt: windowEndsAt, count: 0) }
        guard entry.count + delta <= limit else { return nil }
        entry.count = max(0, entry.count + delta)
        counters[key] = entry
        return entry.count
    }

    func counter(_ key: String, windowEndsAt: Int64) -> Int {
        guard let entry = counters[key], entry.windowEndsAt >= windowEndsAt else { return 0 }
        return entry.count
    }

    mutating func deleteExpiredCounters(endedBy ms: Int64) -> Int {
        let before = counters.count
        counters = counters.filter { $0.value.windowEndsAt > ms }
        return before - counters.count
    }
}
