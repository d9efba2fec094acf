#if DEBUG
import Synchronization

/// Debug builds only (tests): counts, for the task that sets `current`, the key operations of every
/// `OrderedMap` (a comparison while scanning, a hash probe, an entry indexed) and the members handed out by
/// `JSONObject` (`members`, `keys`, iteration: each counts every member, as a caller may visit them all). A test
/// can then measure parsing or key normalisation in operations rather than time, and a scan per member shows as
/// quadratic growth wherever it hides.
public final class KeyOperationCount: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    public var total: Int { count.load(ordering: .relaxed) }

    @TaskLocal public static var current: KeyOperationCount?

    static func add(_ operations: Int) { current?.count.add(operations, ordering: .relaxed) }
}
#endif
