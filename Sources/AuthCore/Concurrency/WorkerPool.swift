import Foundation
import Synchronization
import Dispatch

/// A fixed set of threads for blocking work: database calls, RSA signing, password hashing.
///
/// Why not just `Task {}`: Swift's cooperative pool has one thread per core and must never block, and the
/// HTTP event loops must never run CPU-heavy or blocking work either. A bounded pool per kind of work
/// (database, signing, KDF) also keeps a flood of 45 ms password hashes from queueing ahead of lookups.
public final class WorkerPool: Sendable {
    private struct Job {
        let run: @Sendable () -> Void
        /// When it was queued, for the wait statistics.
        let queuedAt: UInt64
    }

    private struct State {
        var jobs: [Job] = []
        var head = 0
        var stopped = false
    }

    public let name: String
    public let threadCount: Int
    private let state = Mutex(State())
    private let condition = NSCondition()
    /// Jobs started so far and the total time they waited for a thread (for the metrics endpoint).
    private let started = Atomic<UInt64>(0)
    private let waitedNanoseconds = Atomic<UInt64>(0)

    /// Starts `threadCount` threads (at least one) named after `name`.
    public init(name: String, threadCount: Int) {
        self.name = name
        self.threadCount = max(1, threadCount)
        for index in 0..<self.threadCount {
            let threadName = "\(name)-\(index)"
            let thread = Thread { [self] in
                Thread.current.threadDictionary[Self.poolKey] = name
                ThreadNames.nameCurrentThread(threadName)
                self.runLoop()
            }
            thread.name = threadName
            thread.start()
        }
        Self.registry.withLock { $0.append(WeakPool(pool: self)) }
    }

    private struct WeakPool: @unchecked Sendable { weak var pool: WorkerPool? }
    private static let registry = Mutex<[WeakPool]>([])

    /// The pools that exist now, for the metrics endpoint (queue length and wait per pool).
    public static var live: [WorkerPool] {
        registry.withLock { pools in
            pools.removeAll { $0.pool == nil }
            return pools.compactMap(\.pool)
        }
    }

    /// Jobs that have started running, and the seconds they spent queued in total: a KDF pool that cannot
    /// keep up shows as a growing wait per job long before requests time out.
    public var waitStatistics: (jobs: UInt64, seconds: Double) {
        (started.load(ordering: .relaxed), Double(waitedNanoseconds.load(ordering: .relaxed)) / 1e9)
    }

    private static let poolKey = "gatehouse.worker-pool"

    /// The name of the pool whose thread is running the caller, or nil on any other thread. Lets code (and
    /// tests) check that blocking work really runs where it belongs.
    public static var currentPoolName: String? {
        Thread.current.threadDictionary[poolKey] as? String
    }

    /// Runs `work` on one of the pool's threads and returns its result to the caller's task.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        // Resumed exactly once on every path below, so the checked variant's extra allocation and bookkeeping
        // per job buy nothing.
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<T, any Error>) in
            submit {
                do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
            }
        }
    }

    /// Number of jobs waiting for a thread (for metrics and tests).
    public var queuedJobs: Int {
        state.withLock { $0.jobs.count - $0.head }
    }

    /// Lets the threads finish queued work and exit.
    public func stop() {
        condition.lock()
        state.withLock { $0.stopped = true }
        condition.broadcast()
        condition.unlock()
    }

    /// Queues `job` for one of the pool's threads and returns at once (for work that reports back by itself,
    /// such as a batch that resumes its own callers).
    public func submit(_ job: @escaping @Sendable () -> Void) {
        let queued = Job(run: job, queuedAt: DispatchTime.now().uptimeNanoseconds)
        condition.lock()
        state.withLock { $0.jobs.append(queued) }
        condition.signal()
        condition.unlock()
    }

    private func runLoop() {
        while true {
            condition.lock()
            var job: Job?
            var stopped = false
            while true {
                (job, stopped) = state.withLock { s -> (Job?, Bool) in
                    guard s.head < s.jobs.count else { return (nil, s.stopped) }
                    let next = s.jobs[s.head]
                    s.head += 1
                    if s.head > 1024 && s.head * 2 > s.jobs.count {
                        s.jobs.removeFirst(s.head)
                        s.head = 0
                    }
                    return (next, s.stopped)
                }
                if job != nil || stopped { break }
                condition.wait()
            }
            condition.unlock()
            guard let job else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            waitedNanoseconds.add(now >= job.queuedAt ? now - job.queuedAt : 0, ordering: .relaxed)
            started.add(1, ordering: .relaxed)
            job.run()
        }
    }
}
