import Foundation
import Synchronization

/// A fixed set of threads for blocking work: database calls, RSA signing, password hashing.
///
/// Why not just `Task {}`: Swift's cooperative pool has one thread per core and must never block, and the
/// HTTP event loops must never run CPU-heavy or blocking work either. A bounded pool per kind of work
/// (database, signing, KDF) also keeps a flood of 45 ms password hashes from queueing ahead of lookups.
public final class WorkerPool: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var stopped = false
    }

    public let name: String
    public let threadCount: Int
    private let state = Mutex(State())
    private let condition = NSCondition()

    /// Starts `threadCount` threads (at least one) named after `name`.
    public init(name: String, threadCount: Int) {
        self.name = name
        self.threadCount = max(1, threadCount)
        for index in 0..<self.threadCount {
            let threadName = "\(name)-\(index)"
            let thread = Thread { [self] in
                Thread.current.threadDictionary[Self.poolKey] = name
                self.runLoop()
            }
            thread.name = threadName
            thread.start()
        }
    }

    private static let poolKey = "gatehouse.worker-pool"

    /// The name of the pool whose thread is running the caller, or nil on any other thread. Lets code (and
    /// tests) check that blocking work really runs where it belongs.
    public static var currentPoolName: String? {
        Thread.current.threadDictionary[poolKey] as? String
    }

    /// Runs `work` on one of the pool's threads and returns its result to the caller's task.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
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

    private func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        state.withLock { $0.jobs.append(job) }
        condition.signal()
        condition.unlock()
    }

    private func runLoop() {
        while true {
            condition.lock()
            var job: (@Sendable () -> Void)?
            var stopped = false
            while true {
                (job, stopped) = state.withLock { s -> ((@Sendable () -> Void)?, Bool) in
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
            job()
        }
    }
}
