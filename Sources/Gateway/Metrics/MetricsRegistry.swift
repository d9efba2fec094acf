import Synchronization

/// A metric family as Prometheus names it: counters end in `_total`, durations are histograms in seconds.
struct MetricFamily: Sendable, Hashable {
    enum Kind: String, Sendable { case counter, gauge, histogram }

    let name: String
    let help: String
    let kind: Kind
    let labelNames: [String]
    /// Upper bounds of the histogram's buckets in seconds (the `+Inf` bucket is implied).
    let buckets: [Double]

    static func counter(_ name: String, _ help: String, labels: [String] = []) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: .counter, labelNames: labels, buckets: [])
    }

    static func gauge(_ name: String, _ help: String, labels: [String] = []) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: .gauge, labelNames: labels, buckets: [])
    }

    static func histogram(_ name: String, _ help: String, labels: [String] = [],
                          buckets: [Double] = MetricFamily.latencyBuckets) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: .histogram, labelNames: labels, buckets: buckets)
    }

    /// 0.5 ms to 10 s: a lookup takes a fraction of a millisecond, a password hash tens, a provider call seconds.
    static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
}

/// One series' value: a counter's or gauge's number, or a histogram's cumulative-free bucket counts.
enum SeriesValue: Sendable, Equatable {
    case number(Double)
    case histogram(bucketCounts: [UInt64], sum: Double, count: UInt64)

    /// Adds to a counter's number (a histogram is left as it is).
    mutating func add(_ amount: Double) {
        if case .number(let value) = self { self = .number(value + amount) }
    }

    /// Counts one observation in place. The placeholder assignment leaves the bucket array uniquely referenced,
    /// so it is updated without a copy.
    mutating func record(bucket: Int, seconds: Double) {
        guard case .histogram(var counts, let sum, let count) = self else { return }
        self = .number(0)
        counts[bucket] += 1
        self = .histogram(bucketCounts: counts, sum: sum + seconds, count: count + 1)
    }
}

/// Counters and histograms recorded as requests happen. Every update takes one short lock; label values come
/// from closed sets (operations, statuses, provider ids, error codes), so the number of series stays bounded.
final class MetricsRegistry: Sendable {
    /// Identified by the family's name (unique by construction) and the label values: hashing the whole family,
    /// help text and buckets included, on every update was most of an update's cost.
    private struct SeriesKey: Hashable {
        let family: MetricFamily
        let labels: [String]

        static func == (a: SeriesKey, b: SeriesKey) -> Bool { a.family.name == b.family.name && a.labels == b.labels }

        func hash(into hasher: inout Hasher) {
            hasher.combine(family.name)
            hasher.combine(labels)
        }
    }

    private let series = Mutex<[SeriesKey: SeriesValue]>([:])

    func increment(_ family: MetricFamily, _ labels: [String] = [], by amount: Double = 1) {
        precondition(family.kind == .counter && labels.count == family.labelNames.count)
        series.withLock { Self.increment(family, labels, by: amount, in: &$0) }
    }

    func observe(_ family: MetricFamily, _ labels: [String] = [], seconds: Double) {
        precondition(family.kind == .histogram && labels.count == family.labelNames.count)
        series.withLock { Self.observe(family, labels, seconds: seconds, in: &$0) }
    }

    /// A counter and a histogram updated under one lock: every request does both.
    func increment(_ counter: MetricFamily, _ counterLabels: [String],
                   observe histogram: MetricFamily, _ histogramLabels: [String], seconds: Double) {
        precondition(counter.kind == .counter && counterLabels.count == counter.labelNames.count)
        precondition(histogram.kind == .histogram && histogramLabels.count == histogram.labelNames.count)
        series.withLock { all in
            Self.increment(counter, counterLabels, by: 1, in: &all)
            Self.observe(histogram, histogramLabels, seconds: seconds, in: &all)
        }
    }

    /// One hash look-up per update: the value is changed in place in its dictionary slot.
    private static func increment(_ family: MetricFamily, _ labels: [String], by amount: Double,
                                  in all: inout [SeriesKey: SeriesValue]) {
        all[SeriesKey(family: family, labels: labels), default: .number(0)].add(amount)
    }

    private static func observe(_ family: MetricFamily, _ labels: [String], seconds: Double,
                                in all: inout [SeriesKey: SeriesValue]) {
        let bucket = family.buckets.firstIndex { seconds <= $0 } ?? family.buckets.count
        all[SeriesKey(family: family, labels: labels), default: .histogram(
            bucketCounts: [UInt64](repeating: 0, count: family.buckets.count + 1), sum: 0, count: 0)]
            .record(bucket: bucket, seconds: seconds)
    }

    /// Every recorded series, grouped by family.
    func samples() -> [MetricFamily: [(labels: [String], value: SeriesValue)]] {
        let copy = series.withLock { $0 }
        var grouped: [MetricFamily: [(labels: [String], value: SeriesValue)]] = [:]
        for (key, value) in copy { grouped[key.family, default: []].append((key.labels, value)) }
        return grouped
    }
}
