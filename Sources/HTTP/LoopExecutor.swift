import Glibc
import Synchronization

/// The task executor of one event loop: handler tasks run on the loop's own thread.
///
/// Why: handing every request to Swift's cooperative pool cost a wake-up of a pool thread per request and,
/// when it finished, that thread's sleep; on a 2-core VM the kernel's scheduling was the largest single cost of
/// an `accounts:lookup` (a fifth of its CPU in `perf`). A job the loop enqueues for itself (a request it just
/// parsed) runs after the current batch of epoll events, with no system call. A job resumed by another thread
/// (a database writer finished, a KDF hash is ready) arrives through the loop's `CompletionQueue` and its
/// eventfd, as responses did before.
///
/// What this asks of handlers: the same as the cooperative pool always did, never block, only more so, because
/// a handler that blocks holds up every connection of its loop rather than one pool thread. CPU-heavy or
/// blocking work (password hashing, SQLite writes, outbound HTTP) stays on its own threads and is awaited.
/// An RSA signature (a few hundred µs) runs in place, as it did on the pool.
final class LoopExecutor: TaskExecutor, @unchecked Sendable {
    /// The loop's thread, set once when it starts (0 before: every enqueue then goes through the queue).
    private let loopThread = Atomic<UInt>(0)
    /// Jobs enqueued by the loop thread itself; only that thread touches it.
    private var localJobs: [UnownedJob] = []
    /// The emptied array of the last round, kept for its capacity.
    private var spareJobs: [UnownedJob] = []
    private let completions: CompletionQueue

    init(completions: CompletionQueue) {
        self.completions = completions
    }

    /// Called on the loop thread before it runs anything.
    func adoptCurrentThread() {
        loopThread.store(UInt(pthread_self()), ordering: .releasing)
    }

    var isOnLoopThread: Bool {
        pthread_equal(pthread_self(), pthread_t(loopThread.load(ordering: .acquiring))) != 0
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if isOnLoopThread {
            localJobs.append(job)
        } else if !completions.post(.job(job)) {
            // The loop has exited (shutdown): the task still finishes, on the pool.
            globalConcurrentExecutor.enqueue(job)
        }
    }

    /// Runs the jobs the loop thread had queued for itself when called, and returns whether the jobs queued more.
    ///
    /// Those wait for the next round, after the loop has looked at its sockets again: a task that keeps
    /// yielding (`Task.yield()` re-queues it at once) must not keep the loop from its other connections.
    func runLocalJobs() -> Bool {
        guard !localJobs.isEmpty else { return false }
        var round = spareJobs
        swap(&round, &localJobs)
        for job in round { run(job) }
        round.removeAll(keepingCapacity: true)
        spareJobs = round
        return !localJobs.isEmpty
    }

    func run(_ job: UnownedJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }

    /// Called by the loop thread as it exits: hands the jobs it will no longer run to the pool, so that no task
    /// is left suspended forever, and forgets the thread (its id may be reused by a new thread), so that later
    /// jobs go through the closed queue to the pool as well.
    func relinquish(_ jobs: [UnownedJob]) {
        for job in localJobs + jobs { globalConcurrentExecutor.enqueue(job) }
        localJobs.removeAll()
        loopThread.store(0, ordering: .releasing)
    }
}
